package io.clrheap.golden.live;

import java.util.Map;

/**
 * The Windows x64 builds of .NET that npm ships (no .NET SDK needed), which {@link WineTestProcess} runs under Wine
 * with our test program (HeapProbe.cs compiled with {@code -define:WINDOWS}). Each is the Windows twin of a
 * {@link RuntimeBuild} (same package version, {@code -win32} instead of {@code -linux}).
 *
 * <p>How the program gets in was read from each bundle's {@code runtimeconfig.json}, as on Linux: Sarif.Multitool's
 * runs startup hooks; azmcp's sets {@code System.StartupHookProvider.IsSupported: false}, so there our program
 * replaces {@code azmcp.dll} in the bundle (the Windows bundle has the same manifest v6 as the Linux one).
 */
public enum WindowsRuntime {

    /**
     * .NET 8.0.30, single-file, untrimmed. Wine 8 lacks MEM_RESERVE_PLACEHOLDER, with which the runtime maps the
     * bundle's assemblies ("Failed to load System.Private.CoreLib.dll (0x80070057)"); {@code PELoader_DisableMapping}
     * makes it read them into memory instead.
     */
    V8_0_30("8.0.30", "@microsoft/sarif-multitool-win32@5.7.0", "Sarif.Multitool.exe", RuntimeBuild.Launch.STARTUP_HOOK,
            Map.of("DOTNET_PELoader_DisableMapping", "1"), RuntimeBuild.V8_0_30),
    /** .NET 10.0.9, single-file, trimmed: {@code azmcp.exe} of {@code @azure/mcp-win32-x64@2.0.5}. */
    V10_0_9("10.0.9", "@azure/mcp-win32-x64@2.0.5", "dist/azmcp.exe", RuntimeBuild.Launch.BUNDLE_MAIN, Map.of(), RuntimeBuild.V10_0_9);

    private final String version;
    private final String npmPackage;
    private final String host;
    private final RuntimeBuild.Launch launch;
    private final Map<String, String> environment;
    private final RuntimeBuild linux;

    WindowsRuntime(String version, String npmPackage, String host, RuntimeBuild.Launch launch, Map<String, String> environment,
            RuntimeBuild linux) {
        this.version = version;
        this.npmPackage = npmPackage;
        this.host = host;
        this.launch = launch;
        this.environment = environment;
        this.linux = linux;
    }

    /** The runtime's version, e.g. {@code 8.0.30}; also the name of its folder and tests. */
    public String version() {
        return version;
    }

    /** The major version: 8 or 10. */
    public int major() {
        return Integer.parseInt(version.substring(0, version.indexOf('.')));
    }

    /** The npm package spec ({@code name@version}) that holds the runtime. */
    public String npmPackage() {
        return npmPackage;
    }

    /** The host executable, relative to the package's folder (the tarball's {@code package/}). */
    public String host() {
        return host;
    }

    /** A startup hook where the host runs them, else our program as the bundle's main assembly. */
    public RuntimeBuild.Launch launch() {
        return launch;
    }

    /** What this build needs in its environment under Wine, on top of {@link RealRuntimes#runtimeEnvironment}. */
    public Map<String, String> environment() {
        return environment;
    }

    /** The same servicing build for linux-x64. */
    public RuntimeBuild linux() {
        return linux;
    }

    @Override
    public String toString() {
        return version + " (" + npmPackage + ", windows)";
    }
}
