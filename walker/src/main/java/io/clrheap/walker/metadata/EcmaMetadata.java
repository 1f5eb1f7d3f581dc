package io.clrheap.walker.metadata;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.nio.charset.StandardCharsets;

/**
 * An ECMA-335 metadata root in process memory (partition II, chapter 24): the {@code #~} (or {@code #-}) table
 * stream with every table's row count and row size, and the {@code #Strings} heap. Reads rows on demand; nothing
 * but the headers is read up front. Every count read from the dump is checked before it sizes anything.
 */
public final class EcmaMetadata {

    public static final int TYPE_DEF = 0x02;
    public static final int TYPE_REF = 0x01;
    public static final int NESTED_CLASS = 0x29;
    public static final int ASSEMBLY = 0x20;
    public static final int FIELD = 0x04;
    /** No field signature is longer than this (a few nested generic instantiations): a longer one is corrupt. */
    static final int MAX_BLOB = 4096;
    /** Assembly table columns: HashAlgId, Major, Minor, Build, Revision, Flags, PublicKey, Name, Culture (II.22.2). */
    static final int ASSEMBLY_NAME_COLUMN = 7;

    /** A RID is 24 bits (a token's low three bytes). */
    static final int MAX_ROWS = 0xffffff;
    /** The root's version string: at most 255 bytes (II.24.2.1). */
    static final int MAX_VERSION_LENGTH = 256;
    /** The streams a root may declare; a real image has five or six. */
    static final int MAX_STREAMS = 16;
    /** The longest identifier read from #Strings; a longer one is reported as corrupt. */
    static final int MAX_STRING = 4096;
    /** Tables 0x00..0x2C are defined by ECMA-335; rows of later tables are counted but never read. */
    static final int KNOWN_TABLES = 0x2d;

    private final Memory memory;
    private final long root;
    private final String version;
    private final long stringsBase;
    private final long stringsSize;
    private final long blobBase;
    private final long blobSize;
    private final long tablesStream;
    private final int[] rows = new int[64];
    private final int[][] columns = new int[KNOWN_TABLES][];
    private final int[] rowSize = new int[KNOWN_TABLES];
    private final long[] tableStart = new long[KNOWN_TABLES];

    private EcmaMetadata(Memory memory, long root) {
        this.memory = memory;
        this.root = root;
        if (memory.readInt(root) != 0x424a5342) {
            throw new MetadataFormatException(root, "no BSJB metadata signature");
        }
        long versionLength = memory.readU32(root + 12);
        if (versionLength > MAX_VERSION_LENGTH) {
            throw new MetadataFormatException(root + 12, "version length " + versionLength + " (at most " + MAX_VERSION_LENGTH + ")");
        }
        this.version = cString(memory.readBytes(root + 16, (int) versionLength));
        long p = root + 16 + versionLength + 2;
        int streams = memory.readU16(p);
        if (streams > MAX_STREAMS) {
            throw new MetadataFormatException(p, streams + " streams (at most " + MAX_STREAMS + ")");
        }
        p += 2;
        long tables = 0;
        long strings = 0;
        long stringsLength = 0;
        long blob = 0;
        long blobLength = 0;
        for (int i = 0; i < streams; i++) {
            long offset = memory.readU32(p);
            long size = memory.readU32(p + 4);
            long nameAt = p + 8;
            byte[] name = memory.readBytes(nameAt, 32); // names are at most 32 bytes, NUL-padded to 4
            int length = 0;
            while (length < 32 && name[length] != 0) {
                length++;
            }
            if (length == 32) {
                throw new MetadataFormatException(nameAt, "unterminated stream name");
            }
            String n = new String(name, 0, length, StandardCharsets.US_ASCII);
            p = nameAt + ((length + 4) & ~3L);
            if (n.equals("#~") || n.equals("#-")) {
                tables = root + offset;
            } else if (n.equals("#Strings")) {
                strings = root + offset;
                stringsLength = size;
            } else if (n.equals("#Blob")) {
                blob = root + offset;
                blobLength = size;
            }
        }
        if (tables == 0) {
            throw new MetadataFormatException(root, "no #~ table stream");
        }
        if (strings == 0) {
            throw new MetadataFormatException(root, "no #Strings heap");
        }
        this.stringsBase = strings;
        this.tablesStream = tables;
        this.stringsSize = stringsLength;
        this.blobBase = blob;
        this.blobSize = blobLength;
        int heapSizes = memory.readU8(tables + 6);
        long valid = memory.readLong(tables + 8);
        long at = tables + 24;
        for (int i = 0; i < 64; i++) {
            if ((valid >>> i & 1) != 0) {
                long count = memory.readU32(at);
                if (count > MAX_ROWS) {
                    throw new MetadataFormatException(at, String.format("table 0x%02x has %d rows (at most %d)", i, count, MAX_ROWS));
                }
                rows[i] = (int) count;
                at += 4;
            }
        }
        if ((heapSizes & 0x20) != 0) {
            at += 4; // extra data
        }
        int stringWidth = (heapSizes & 1) != 0 ? 4 : 2;
        int guidWidth = (heapSizes & 2) != 0 ? 4 : 2;
        int blobWidth = (heapSizes & 4) != 0 ? 4 : 2;
        for (int t = 0; t < KNOWN_TABLES; t++) {
            String[] spec = TableSchema.COLUMNS[t].split(" ");
            int[] widths = new int[spec.length];
            int total = 0;
            for (int c = 0; c < spec.length; c++) {
                widths[c] = switch (spec[c]) {
                    case "2" -> 2;
                    case "4" -> 4;
                    case "S" -> stringWidth;
                    case "G" -> guidWidth;
                    case "B" -> blobWidth;
                    default -> spec[c].startsWith("t:")
                            ? (rows[Integer.parseInt(spec[c].substring(2), 16)] > 0xffff ? 4 : 2)
                            : TableSchema.codedWidth(spec[c].substring(2), rows);
                };
                total += widths[c];
            }
            columns[t] = widths;
            rowSize[t] = total;
            tableStart[t] = at;
            at += (long) total * rows[t];
        }
    }

    /**
     * Reads the metadata root at {@code root}.
     *
     * @throws MissingMemoryException  when its headers are not in the dump
     * @throws MetadataFormatException when they are corrupt
     */
    public static EcmaMetadata read(Memory memory, long root) {
        return new EcmaMetadata(memory, root);
    }

    public long root() {
        return root;
    }

    /** The runtime version the image was built against, e.g. {@code v4.0.30319}. */
    public String version() {
        return version;
    }

    /** The {@code #~} stream's address: its header, then the row counts, then the tables. */
    public long tablesStream() {
        return tablesStream;
    }

    public int rowCount(int table) {
        return rows[table];
    }

    public int rowSize(int table) {
        return rowSize[table];
    }

    public long tableStart(int table) {
        return tableStart[table];
    }

    /** Column {@code column} of row {@code rid} (1-based) of {@code table}. */
    public long cell(int table, int rid, int column) {
        long at = cellAddress(table, rid, column);
        return columns[table][column] == 2 ? memory.readU16(at) : memory.readU32(at);
    }

    /** Where column {@code column} of row {@code rid} (1-based) of {@code table} lies. */
    public long cellAddress(int table, int rid, int column) {
        if (rid < 1 || rid > rows[table]) {
            throw new MetadataFormatException(tableStart[table], String.format("row %d of table 0x%02x: it has %d rows", rid, table, rows[table]));
        }
        long at = tableStart[table] + (long) (rid - 1) * rowSize[table];
        int[] widths = columns[table];
        for (int c = 0; c < column; c++) {
            at += widths[c];
        }
        return at;
    }

    /** The #Strings identifier a cell indexes; an index beyond the heap is reported at the cell. */
    private String stringCell(int table, int rid, int column, String what) {
        long index = cell(table, rid, column);
        if (index >= stringsSize) {
            throw new MetadataFormatException(cellAddress(table, rid, column), String.format("%s of table 0x%02x row %d: #Strings index %d beyond the heap's %d bytes",
                    what, table, rid, index, stringsSize));
        }
        return string(index);
    }

    /** The UTF-8 identifier at {@code index} of the #Strings heap. */
    public String string(long index) {
        if (index >= stringsSize) {
            throw new MetadataFormatException(stringsBase, "#Strings index " + index + " beyond the heap's " + stringsSize + " bytes");
        }
        long at = stringsBase + index;
        int chunk = 64;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        while (out.size() < MAX_STRING) {
            int n = (int) Math.min(chunk, stringsSize - index - out.size());
            if (n <= 0) {
                break;
            }
            byte[] b = memory.readBytes(at + out.size(), n);
            for (int i = 0; i < n; i++) {
                if (b[i] == 0) {
                    out.write(b, 0, i);
                    return out.toString(StandardCharsets.UTF_8);
                }
            }
            out.write(b, 0, n);
        }
        throw new MetadataFormatException(at, "unterminated #Strings entry");
    }

    /**
     * The blob at {@code index} of the #Blob heap (II.24.2.4: a compressed length, then the bytes), at most
     * {@link #MAX_BLOB} bytes; a blob past the heap's end, or longer, is reported where it starts.
     */
    public byte[] blob(long index) {
        if (blobBase == 0 || index >= blobSize) {
            throw new MetadataFormatException(blobBase, "#Blob index " + index + " beyond the heap's " + blobSize + " bytes");
        }
        long at = blobBase + index;
        int first = memory.readU8(at);
        long length;
        int header;
        if ((first & 0x80) == 0) {
            length = first;
            header = 1;
        } else if ((first & 0xc0) == 0x80) {
            length = ((first & 0x3fL) << 8) | memory.readU8(at + 1);
            header = 2;
        } else if ((first & 0xe0) == 0xc0) {
            length = ((first & 0x1fL) << 24) | ((long) memory.readU8(at + 1) << 16) | ((long) memory.readU8(at + 2) << 8) | memory.readU8(at + 3);
            header = 4;
        } else {
            throw new MetadataFormatException(at, String.format("#Blob entry %d starts with 0x%02x, no compressed length", index, first));
        }
        if (length > MAX_BLOB || index + header + length > blobSize) {
            throw new MetadataFormatException(at, String.format("#Blob entry %d is %d bytes: beyond the heap or longer than %d", index, length, MAX_BLOB));
        }
        return memory.readBytes(at + header, (int) length);
    }

    /** Field row {@code rid} (II.22.15): its flags, name and signature. */
    public FieldDef field(int rid) {
        int flags = (int) cell(FIELD, rid, 0);
        String name = stringCell(FIELD, rid, 1, "Name");
        return new FieldDef(rid, flags, name, blob(cell(FIELD, rid, 2)));
    }

    /** TypeDef row {@code rid}: flags, name, namespace and (when nested) its enclosing row. */
    public TypeDefName typeDef(int rid) {
        int flags = (int) cell(TYPE_DEF, rid, 0);
        String name = stringCell(TYPE_DEF, rid, 1, "TypeName");
        String namespace = stringCell(TYPE_DEF, rid, 2, "TypeNamespace");
        int enclosing = TypeDefName.nestedVisibility(flags) ? enclosingClass(rid) : 0;
        if (TypeDefName.nestedVisibility(flags) && enclosing == 0) {
            throw new MetadataFormatException(tableStart[NESTED_CLASS], "TypeDef row " + rid + " is nested but no NestedClass row names it");
        }
        return new TypeDefName(rid, flags, namespace, name, enclosing);
    }

    /**
     * The assembly's simple name (the Assembly table's one row, II.22.2), empty for a module without one: what the
     * DAC qualifies a generic argument with ({@code [System.String, System.Private.CoreLib]}).
     */
    public String assemblyName() {
        return rows[ASSEMBLY] == 0 ? "" : stringCell(ASSEMBLY, 1, ASSEMBLY_NAME_COLUMN, "Name");
    }

    /** TypeRef row {@code rid}: namespace and name (its ResolutionScope is not followed). */
    public TypeDefName typeRef(int rid) {
        return new TypeDefName(rid, 0, string(cell(TYPE_REF, rid, 2)), string(cell(TYPE_REF, rid, 1)), 0);
    }

    /**
     * The enclosing TypeDef row of {@code rid} from the NestedClass table, 0 when none: a binary search (the table is
     * sorted by its NestedClass column, II.22), then a linear scan in case it is not.
     */
    public int enclosingClass(int rid) {
        int lo = 1;
        int hi = rows[NESTED_CLASS];
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long nested = cell(NESTED_CLASS, mid, 0);
            if (nested == rid) {
                return (int) cell(NESTED_CLASS, mid, 1);
            } else if (nested < rid) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        for (int r = 1; r <= rows[NESTED_CLASS]; r++) {
            if (cell(NESTED_CLASS, r, 0) == rid) {
                return (int) cell(NESTED_CLASS, r, 1);
            }
        }
        return 0;
    }

    private static String cString(byte[] bytes) {
        int n = 0;
        while (n < bytes.length && bytes[n] != 0) {
            n++;
        }
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }
}
