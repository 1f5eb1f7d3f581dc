package io.clrheap.emulator.types;

import io.clrheap.emulator.metadata.CliImage;
import io.clrheap.emulator.module.ModuleMapping;
import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.process.ProcessLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The files behind the emulated Modules: for each assembly its image, mapped from its file, and its PEAssembly,
 * PEImage and loaded PEImageLayout in the malloc heap as the runtime allocates them (peassembly.h, peimage.h,
 * peimagelayout.h; laid out as in the real dumps, offsets from the profile). The DAC's {@code GetMethodTableName}
 * follows MethodTable → Module → PEAssembly → PEImage → loaded layout → CLI header → metadata (request.cpp); the
 * walker's metadata reader follows {@code Module.Base} (9, 10) or the same chain (8). docs/reference/type-names.md,
 * "In the emulator".
 *
 * <p>The image is mapped as the 9.0.1 host maps an assembly file (net9-withheap's CoreLib and System.Console):
 * at a 64 KiB aligned base, headers {@code r--p} and the section {@code r-xp}, the section at file offset = RVA, so the
 * loaded layout is a mapped one (RVA = offset from Base, {@code FLAG_MAPPED}).
 */
public final class AssemblyFile {

    /** Flags of an SString holding a path: the value in every PEImage path of the real dumps (profile, SString.Flags). */
    private static final int PATH_STRING_FLAGS = 0x10c;
    /** The alignment of a mapped image's base (the PAL maps PE images at 64 KiB: every assembly base of net9-withheap). */
    private static final long IMAGE_ALIGNMENT = 0x10000;

    private AssemblyFile() {
    }

    /**
     * Maps every assembly's image and lays out its PEAssembly, PEImage and loaded layout; links each Module to them.
     *
     * @param peAssemblyVtable PEAssembly's vtable in the runtime module
     * @param layoutVtable     LoadedImageLayout's vtable (g_dacTable's LoadedImageLayout__vtAddr where the profile has it)
     * @return the images' file mappings
     */
    public static List<ModuleMapping> layOut(Process process, TypeSystem types, long peAssemblyVtable, long layoutVtable) {
        List<ModuleMapping> mappings = new ArrayList<>();
        long next = ProcessLayout.ASSEMBLY_IMAGES;
        List<EmulatedAssembly> assemblies = types.plan().assemblies();
        for (int i = 0; i < assemblies.size(); i++) {
            EmulatedAssembly assembly = assemblies.get(i);
            CliImage image = assembly.image();
            long base = next;
            if (base + image.sizeOfImage() > ProcessLayout.ASSEMBLY_IMAGES + ProcessLayout.ASSEMBLY_IMAGES_SIZE) {
                throw new IllegalArgumentException("the assemblies' images need more than " + (ProcessLayout.ASSEMBLY_IMAGES_SIZE >> 20) + " MiB");
            }
            byte[] bytes = image.bytes();
            process.memory().write(base, bytes, 0, bytes.length);
            next = (base + image.sizeOfImage() + IMAGE_ALIGNMENT - 1) & -IMAGE_ALIGNMENT;
            String file = assembly.identity().moduleName();
            mappings.add(new ModuleMapping(base, base + CliImage.TEXT_RVA, 0, file, "r--p"));
            mappings.add(new ModuleMapping(base + CliImage.TEXT_RVA, base + image.sizeOfImage(), CliImage.TEXT_RVA, file, "r-xp"));
            layOut(process, types.modules().get(i), file, base, image, peAssemblyVtable, layoutVtable);
        }
        return mappings;
    }

    /**
     * The PEAssembly, PEImage and loaded layout of one Module. The path is the file name alone: a real PEImage holds
     * the full path (beside libcoreclr.so in net9-wks), but the emulated Linux and Windows builds of a scenario differ
     * only in the runtime module's headers, so no platform path goes into the process's memory.
     */
    private static void layOut(Process process, long module, String file, long base, CliImage image, long peAssemblyVtable, long layoutVtable) {
        var memory = process.memory();
        var layout = process.layout();
        byte[] chars = (file + '\0').getBytes(StandardCharsets.UTF_16LE);
        long buffer = process.nativeHeap().allocate(chars.length, 16);
        memory.write(buffer, chars, 0, chars.length);

        long peImage = process.allocateNative("PEImage", 0);
        long pathString = peImage + process.offset("PEImage", "Path");
        memory.writeInt(pathString + process.offset("SString", "Size"), chars.length);
        memory.writeInt(pathString + process.offset("SString", "Allocation"), chars.length);
        memory.writeInt(pathString + process.offset("SString", "Flags"), PATH_STRING_FLAGS);
        memory.writePointer(pathString + process.offset("SString", "Buffer"), buffer);

        // the loaded layout: PEDecoder's base, size, flags and cached header pointers, as CoreLib's in net9-withheap
        long loaded = process.allocateNative("PEImageLayout", 0);
        memory.writePointer(loaded + process.offset("PEImageLayout", "VTable"), layoutVtable);
        memory.writePointer(loaded + process.offset("PEImageLayout", "Base"), base);
        memory.writeInt(loaded + process.offset("PEImageLayout", "Size"), image.sizeOfImage());
        memory.writeInt(loaded + process.offset("PEImageLayout", "Flags"), (int) layout.constant("pe_image_layout.flags.mapped"));
        memory.writePointer(loaded + process.offset("PEImageLayout", "NTHeaders"), base + CliImage.NT_HEADERS);
        memory.writePointer(loaded + process.offset("PEImageLayout", "CorHeader"), base + image.corHeaderRva());
        memory.writeInt(loaded + process.offset("PEImageLayout", "RefCount"), 1);
        memory.writePointer(loaded + process.offset("PEImageLayout", "Owner"), peImage);
        memory.writePointer(loaded + process.offset("PEImageLayout", "LoadedFile"), base);
        // the flat layout and the metadata importer stay NULL: the DAC and the walker read the loaded layout
        memory.writePointer(peImage + process.offset("PEImage", "LoadedLayout"), loaded);

        long assembly = process.allocateNative("PEAssembly", 0);
        memory.writePointer(assembly + process.offset("PEAssembly", "VTable"), peAssemblyVtable);
        memory.writePointer(assembly + process.offset("PEAssembly", "PEImage"), peImage);
        memory.writeInt(assembly + process.offset("PEAssembly", "RefCount"), 1);
        memory.writePointer(module + process.offset("Module", "PEAssembly"), assembly);
        // Module::m_baseAddress (9, 10): the loaded layout's base in every Module of net9-withheap
        layout.type("Module").findField("Base").ifPresent(f -> memory.writePointer(module + f.offset(), base));
    }
}
