package io.clrheap.emulator.types;

import java.nio.charset.StandardCharsets;
import io.clrheap.emulator.process.Process;

/**
 * The file behind the emulated Module: its PEAssembly and PEImage, in the malloc heap as the runtime allocates them
 * (peassembly.h, peimage.h; laid out as in the real 8.0.30, 9.0.1 and 10.0.9 dumps). The DAC's
 * {@code GetMethodTableName} follows MethodTable → Module → PEAssembly → PEImage without a check (request.cpp), then
 * looks for the module's metadata through the image's loaded layout. The emulated image is opened, not mapped: it
 * has its name but no layout, so the DAC finds no metadata and answers a failing HRESULT instead of a name (type
 * names from metadata are not emulated).
 */
public final class AssemblyFile {

    /**
     * The assembly every emulated type lives in, CoreLib, named by its file name alone: a real PEImage holds the full
     * path (beside libcoreclr.so in net9-wks), but the emulated Linux and Windows builds of a scenario differ only in
     * the runtime module's headers, so no platform path goes into the process's memory.
     */
    static final String CORE_LIB = "System.Private.CoreLib.dll";

    /** Flags of an SString holding a path: the value in every PEImage path of the real dumps (profile, SString.Flags). */
    private static final int PATH_STRING_FLAGS = 0x10c;

    private AssemblyFile() {
    }

    /**
     * Lays out the PEAssembly and PEImage of {@code module} and links the Module to them.
     *
     * @param vtable PEAssembly's vtable in the runtime module
     * @return the PEAssembly
     */
    public static long layOut(Process process, long module, long vtable) {
        var memory = process.memory();
        byte[] chars = (CORE_LIB + '\0').getBytes(StandardCharsets.UTF_16LE);
        long buffer = process.nativeHeap().allocate(chars.length, 16);
        memory.write(buffer, chars, 0, chars.length);

        long image = process.allocateNative("PEImage", 0);
        long pathString = image + process.offset("PEImage", "Path");
        memory.writeInt(pathString + process.offset("SString", "Size"), chars.length);
        memory.writeInt(pathString + process.offset("SString", "Allocation"), chars.length);
        memory.writeInt(pathString + process.offset("SString", "Flags"), PATH_STRING_FLAGS);
        memory.writePointer(pathString + process.offset("SString", "Buffer"), buffer);
        // FlatLayout, LoadedLayout and MDImport stay NULL: the image is not mapped, its metadata not open

        long assembly = process.allocateNative("PEAssembly", 0);
        memory.writePointer(assembly + process.offset("PEAssembly", "VTable"), vtable);
        memory.writePointer(assembly + process.offset("PEAssembly", "PEImage"), image);
        memory.writeInt(assembly + process.offset("PEAssembly", "RefCount"), 1);
        memory.writePointer(module + process.offset("Module", "PEAssembly"), assembly);
        return assembly;
    }
}
