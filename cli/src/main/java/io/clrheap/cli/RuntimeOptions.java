package io.clrheap.cli;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import picocli.CommandLine.Option;

/** {@code --runtime} and {@code --gc}, shared by every command that works on one runtime profile. */
final class RuntimeOptions {

    /** The default scenario's runtime: .NET 8 server GC, the setting of the source article's in-process walk. */
    static final RuntimeVersion DEFAULT_RUNTIME = RuntimeVersion.NET8;
    static final GcFlavor DEFAULT_GC = GcFlavor.SERVER;

    @Option(names = "--runtime", paramLabel = "net8|net9|net10", converter = RuntimeConverter.class,
            description = "Runtime version (default: ${DEFAULT-VALUE}).", defaultValue = "net8")
    RuntimeVersion runtime = DEFAULT_RUNTIME;

    @Option(names = "--gc", paramLabel = "server|workstation", converter = GcConverter.class,
            description = "GC flavour (default: ${DEFAULT-VALUE}).", defaultValue = "server")
    GcFlavor gc = DEFAULT_GC;

    static final class RuntimeConverter implements picocli.CommandLine.ITypeConverter<RuntimeVersion> {
        @Override
        public RuntimeVersion convert(String value) {
            try {
                return RuntimeVersion.parse(value);
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
