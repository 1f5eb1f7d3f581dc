package io.clrheap.emulator.module;


/**
 * The runtime module of an emulated process as a dump's module list describes it: {@code libcoreclr.so} on Linux,
 * {@code coreclr.dll} on Windows.
 *
 * @param platform      which of the two, and so the image's format (ELF or PE32+)
 * @param path          its full path, e.g. {@code C:\Program Files\dotnet\shared\Microsoft.NETCore.App\8.0.30\coreclr.dll}
 * @param base          where it is mapped (the PE image base; the start of the ELF file-offset-0 mapping)
 * @param size          the bytes from {@code base} it spans: SizeOfImage of a PE image, the end of .bss of an ELF one
 * @param timeDateStamp the PE header's TimeDateStamp (a fixed stand-in for the link time); 0 for ELF
 * @param fileVersion   the runtime's file version
 */
public record EmulatedModule(Platform platform, String path, long base, long size, int timeDateStamp, FileVersion fileVersion) {

    /** The file name: {@code coreclr.dll}, {@code libcoreclr.so}. */
    public String fileName() {
        return path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
    }

    @Override
    public String toString() {
        return String.format("EmulatedModule[%s %s at 0x%x, 0x%x bytes, timestamp 0x%08x, version %s]", platform, path, base, size,
                timeDateStamp, fileVersion);
    }
}
