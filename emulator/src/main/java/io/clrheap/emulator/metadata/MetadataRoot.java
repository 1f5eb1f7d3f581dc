package io.clrheap.emulator.metadata;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;

/**
 * ECMA-335 metadata as a whole (II.24.2.1): the root ({@code BSJB}, version 1.1, the version string
 * {@value #VERSION} every .NET assembly carries), the stream headers and the streams {@code #~}, {@code #Strings},
 * {@code #US}, {@code #GUID}, {@code #Blob} in that order (the order compilers write them). {@code #US} holds
 * only its empty entry, {@code #Blob} the fields' signatures; {@code #GUID} the module's MVID, derived from the assembly's name so that
 * the same assembly gives the same bytes.
 */
public final class MetadataRoot {

    /** The root's signature, "BSJB" (II.24.2.1). */
    static final int SIGNATURE = 0x424A5342;
    /** The version string of every assembly for .NET (Framework 4 on); the runtime reads, not checks, it. */
    static final String VERSION = "v4.0.30319";

    private MetadataRoot() {
    }

    /** The metadata of an assembly holding {@code types} (TypeDef rows from RID {@value MetadataTables#FIRST_TYPE_RID}). */
    public static byte[] build(AssemblyIdentity assembly, List<TypeDefRow> types) {
        StringHeap strings = new StringHeap();
        BlobHeap blobs = new BlobHeap();
        byte[] tables = MetadataTables.stream(assembly, types, strings, blobs, 1);
        byte[][] streams = {tables, strings.stream(), new byte[4], mvid(assembly.simpleName()), blobs.stream()};
        String[] names = {"#~", "#Strings", "#US", "#GUID", "#Blob"};

        byte[] version = Arrays.copyOf(VERSION.getBytes(StandardCharsets.US_ASCII), (VERSION.length() + 1 + 3) & -4);
        int headers = 0;
        for (String n : names) {
            headers += 8 + ((n.length() + 1 + 3) & -4);
        }
        int start = 16 + version.length + 4 + headers;
        int total = start;
        for (byte[] s : streams) {
            total += s.length;
        }
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(SIGNATURE).putShort((short) 1).putShort((short) 1).putInt(0).putInt(version.length).put(version);
        b.putShort((short) 0).putShort((short) streams.length);
        int offset = start;
        for (int i = 0; i < streams.length; i++) {
            b.putInt(offset).putInt(streams[i].length);
            b.put(Arrays.copyOf(names[i].getBytes(StandardCharsets.US_ASCII), (names[i].length() + 1 + 3) & -4));
            offset += streams[i].length;
        }
        for (byte[] s : streams) {
            b.put(s);
        }
        return b.array();
    }

    /** A version-5-style GUID from SHA-1 of the name (RFC 4122 4.3 bit layout): the same assembly, the same MVID. */
    static byte[] mvid(String name) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-1").digest(("clrheap emulated module " + name).getBytes(StandardCharsets.UTF_8));
            byte[] guid = Arrays.copyOf(hash, 16);
            guid[7] = (byte) ((guid[7] & 0x0f) | 0x50);
            guid[8] = (byte) ((guid[8] & 0x3f) | 0x80);
            return guid;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
