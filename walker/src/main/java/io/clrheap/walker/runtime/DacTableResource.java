package io.clrheap.walker.runtime;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.symbols.ModuleFormatException;
import io.clrheap.walker.symbols.PeResourceDirectory;
import java.util.Optional;

/**
 * The DAC table as a Windows runtime before .NET 7 kept it: the RT_RCDATA resource {@code COREXTERNALDATAACCESSRESOURCE}
 * of {@code coreclr.dll} (daccess.h {@code DACCESS_TABLE_RESOURCE}), which DacTableGen built from coreclr.pdb after
 * linking. Its data is a DacTableHeader — {@code ULONG numGlobals; ULONG numVptrs;} and a DacTableInfo whose first
 * DWORD is the TimeDateStamp of the image's CodeView debug entry — then {@code numGlobals + numVptrs} 4-byte RVAs in
 * the order of DacGlobals: dacvars.h and the functions, then the vtables ({@code dotnet/coreclr:src/debug/daccess/daccess.cpp}
 * {@code ClrDataAccess::GetDacGlobals}). From .NET 7 on the table is the export {@code g_dacTable} instead
 * (dotnet/runtime#68065): clrheap reads this header only to name such a runtime when it refuses it
 * (docs/reference/windows.md section 6).
 *
 * @param address    where the resource's data is
 * @param size       its size in bytes
 * @param numGlobals the globals (and functions) it lists
 * @param numVptrs   the vtables it lists
 * @param timestamp  DacTableInfo.dwID0: the CodeView debug entry's TimeDateStamp
 */
public record DacTableResource(long address, long size, long numGlobals, long numVptrs, long timestamp) {

    /** The resource's name (daccess.h DACCESS_TABLE_RESOURCE before .NET 7). */
    public static final String NAME = "COREXTERNALDATAACCESSRESOURCE";
    /** sizeof(DacTableHeader): 2 × 4 + 16. */
    static final int HEADER_SIZE = 24;
    /** A DAC table of 3.x–6 lists a few hundred entries; a count beyond this is not one. */
    static final long MAX_ENTRIES = 1 << 16;

    /**
     * The resource in the image at {@code base}, or empty when the image has no such resource.
     *
     * @throws ModuleFormatException  when the image's resource directory or the resource's header is corrupt (address named)
     * @throws MissingMemoryException when bytes on the way are not in the memory
     */
    public static Optional<DacTableResource> inMemory(Memory memory, long base) throws ModuleFormatException {
        Optional<PeResourceDirectory> directory = PeResourceDirectory.inMemory(memory, base);
        if (directory.isEmpty()) {
            return Optional.empty();
        }
        Optional<PeResourceDirectory.Resource> found = directory.get().find(PeResourceDirectory.Key.id(PeResourceDirectory.RT_RCDATA),
                PeResourceDirectory.Key.name(NAME));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        PeResourceDirectory.Resource r = found.get();
        if (r.size() < HEADER_SIZE) {
            throw new ModuleFormatException(String.format("the resource %s at 0x%x in %s is %d bytes: less than its DacTableHeader (%d)",
                    NAME, r.address(), memory.describe(), r.size(), HEADER_SIZE));
        }
        long globals = memory.readU32(r.address());
        long vptrs = memory.readU32(r.address() + 4);
        if (globals > MAX_ENTRIES || vptrs > MAX_ENTRIES || HEADER_SIZE + 4 * (globals + vptrs) > r.size()) {
            throw new ModuleFormatException(String.format("the resource %s at 0x%x in %s: its header lists %d globals and %d vtables, "
                    + "which its %d bytes do not hold (4 bytes each after %d)", NAME, r.address(), memory.describe(), globals, vptrs, r.size(), HEADER_SIZE));
        }
        return Optional.of(new DacTableResource(r.address(), r.size(), globals, vptrs, memory.readU32(r.address() + 8)));
    }

    /** The address of global {@code index}: the image base plus its RVA. */
    public long entry(Memory memory, long base, int index) {
        if (index < 0 || index >= numGlobals + numVptrs) {
            throw new IndexOutOfBoundsException("entry " + index + " of " + (numGlobals + numVptrs));
        }
        return base + memory.readU32(address + HEADER_SIZE + 4L * index);
    }
}
