package io.clrheap.golden.live;

/**
 * The three real builds most tests run on, one per major: the ones whose dumps are in {@code golden/real/} and whose
 * layouts the model was first made from. Each is one of {@link RuntimeBuild}'s (which lists every servicing build npm
 * ships); {@link DotnetTestProcess} starts our program on it.
 */
public enum RealRuntime {

    /** .NET 8.0.30: the single-file self-contained host {@code Sarif.Multitool} (untrimmed); our program is a startup hook. */
    NET8(RuntimeBuild.V8_0_30),
    /** .NET 9.0.1: the classic self-contained layout ({@code dist/azmcp} apphost beside {@code libcoreclr.so}); a startup hook. */
    NET9(RuntimeBuild.V9_0_1),
    /**
     * .NET 10.0.9: the single-file, trimmed {@code dist/azmcp} (startup hooks disabled): our program replaces
     * {@code azmcp.dll} inside the bundle, compiled against the .NET Core 2.0 CoreLib of {@link RuntimeBuild#COMPILE_REFERENCE}.
     */
    NET10(RuntimeBuild.V10_0_9);

    private final RuntimeBuild build;

    RealRuntime(RuntimeBuild build) {
        this.build = build;
    }

    /** The servicing build. */
    public RuntimeBuild build() {
        return build;
    }

    /** The runtime's version, e.g. {@code 9.0.1}. */
    public String version() {
        return build.version();
    }

    /** The npm package spec ({@code name@version}) that holds the runtime. */
    public String npmPackage() {
        return build.npmPackage();
    }

    /** The host executable, relative to the package's folder (the tarball's {@code package/}). */
    public String host() {
        return build.host();
    }

    public RuntimeBuild.Launch launch() {
        return build.launch();
    }

    /** {@code net8}, {@code net9}, {@code net10}: the name the command line and the golden folders use. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
