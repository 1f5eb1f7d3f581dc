package io.clrheap.emulator.module;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * A PE image's CodeView debug record in the PDB 7.0 form ({@code CV_INFO_PDB70}, "RSDS"): what names the image's PDB
 * to a debugger and to a symbol server, the record a PE debug directory entry of type IMAGE_DEBUG_TYPE_CODEVIEW (2)
 * points at and a minidump module's CvRecord holds a copy of. Layout (Microsoft, "PE Format", "Debug Type"; LLVM
 * llvm/include/llvm/Object/CVDebugRecord.h): the signature {@code 'RSDS'} (0x53445352) at 0, the PDB's GUID at 4 (16
 * bytes, in GUID order: Data1 u32, Data2 u16, Data3 u16 little endian, then Data4's 8 bytes), the age at 20 (u32), the
 * PDB file name at 24, UTF-8, NUL-terminated.
 *
 * @param guid    the PDB's signature GUID
 * @param age     the PDB's age (1 in the Microsoft .NET images measured: docs/reference/dump-formats.md section 3.9)
 * @param pdbName the PDB file name as the image holds it
 */
public record CodeViewRecord(UUID guid, int age, String pdbName) {

    /** {@code 'RSDS'} read as a little-endian u32. */
    public static final int RSDS = 0x53445352;
    /** Signature, GUID and age: where the name starts. */
    public static final int NAME_OFFSET = 24;

    /**
     * The record of a runtime build's {@code coreclr.pdb}: a GUID that is the build's alone and always the same for it
     * (a name-based UUID of the PDB name and the four-part file version, which names the build), age 1. Real builds
     * have a GUID the linker chose; no clock and no randomness here.
     */
    public static CodeViewRecord forBuild(String pdbName, FileVersion version) {
        UUID guid = UUID.nameUUIDFromBytes((pdbName + " " + version).getBytes(StandardCharsets.UTF_8));
        return new CodeViewRecord(guid, 1, pdbName);
    }

    /** The record's bytes: RSDS, the GUID in GUID order, the age, the NUL-terminated name. */
    public byte[] bytes() {
        byte[] name = pdbName.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(NAME_OFFSET + name.length + 1).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(RSDS);
        long high = guid.getMostSignificantBits();
        b.putInt((int) (high >>> 32));                 // Data1
        b.putShort((short) (high >>> 16));             // Data2
        b.putShort((short) high);                      // Data3
        b.order(ByteOrder.BIG_ENDIAN).putLong(guid.getLeastSignificantBits()).order(ByteOrder.LITTLE_ENDIAN); // Data4, as written
        b.putInt(age);
        b.put(name).put((byte) 0);
        return b.array();
    }
}
