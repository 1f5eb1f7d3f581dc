package io.clrheap.cli;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.profile.RuntimeChoice;
import picocli.CommandLine.Option;

/** {@code --runtime} and {@code --gc}, shared by every command that works on one runtime profile. */
final class RuntimeOptions {

    /** The default scenario's runtime: .NET 8 server GC, the setting of the source article's in-process walk. */
    static final RuntimeVersion DEFAULT_RUNTIME = RuntimeVersion.NET8;
    static final GcFlavor DEFAULT_GC = GcFlavor.SERVER;

    @Option(names = "--runtime", paramLabel = "net8|net9|net10|BUILD", converter = RuntimeConverter.class,
            description = "Runtime: net8, net9 or net10 (each its reference build: 8.0.30, 9.0.1, 10.0.9), or an exact build the profiles know, e.g. 9.0.7; ./clrheap --version lists them; default: ${DEFAULT-VALUE}).", defaultValue = "net8")
    RuntimeChoice runtime = RuntimeChoice.of(DEFAULT_RUNTIME);

    @Option(names = "--gc", paramLabel = "server|workstation", converter = GcConverter.class,
            description = "GC flavour (default: ${DEFAULT-VALUE}).", defaultValue = "server")
    GcFlavor gc = DEFAULT_GC;

    /** {@code --runtime}: a version or an exact build ({@link RuntimeChoice#parse}); another is bad usage naming the known ones. */
    static final class RuntimeConverter implements picocli.CommandLine.ITypeConverter<RuntimeChoice> {
        @Override
        public RuntimeChoice convert(String value) {
            try {
                return RuntimeChoice.parse(value, ProfileLoader.builtIn());
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final class GcConverter implements picocli.CommandLine.ITypeConverter<GcFlavor> {
        @Override
        public GcFlavor convert(String value) {
            try {
                return GcFlavor.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
