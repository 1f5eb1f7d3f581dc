package io.clrheap.walker.symbols;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The resource directory of a PE32+ image as mapped in a process (data directory 2), read from memory: a tree of three
 * levels, type → name → language. Each level is an IMAGE_RESOURCE_DIRECTORY (16 bytes; NumberOfNamedEntries at 12,
 * NumberOfIdEntries at 14) followed by its 8-byte entries, the named ones first; an entry's first DWORD is an id, or with
 * bit 31 set the offset of its name (IMAGE_RESOURCE_DIR_STRING_U: a u16 length, then that many UTF-16 code units); its
 * second DWORD is, with bit 31 set, the offset of the next level's directory, else that of an
 * IMAGE_RESOURCE_DATA_ENTRY (OffsetToData, an image RVA; Size; CodePage; Reserved). Every offset but OffsetToData is
 * relative to the start of the resource directory. Facts: Microsoft "PE Format", ".rsrc Section";
 * {@code dotnet/runtime:src/coreclr/debug/dbgutil/dbgutil.cpp} ({@code GetResourceRvaFromResourceSectionRvaByName},
 * {@code GetNextLevelResourceEntryRVA}) walks it the same way; docs/reference/windows.md section 6.
 *
 * <p>Bounded: the tree is exactly three levels (a directory where a data entry belongs, or the reverse, is refused, so
 * no cycle or deeper tree is followed); a directory of more than {@value #MAX_ENTRIES} entries is refused; every
 * directory, entry and name must lie inside the resource data directory, and the data inside the image; names longer
 * than {@value #MAX_NAME} code units are never read (no name looked up is that long). A readable but wrong tree is a
 * {@link ModuleFormatException} naming the address; bytes not in the memory throw its {@link MissingMemoryException}.
 */
public final class PeResourceDirectory {

    /** RT_RCDATA: raw data (the type of the pre-.NET 7 DAC table resource). */
    public static final int RT_RCDATA = 10;
    /** RT_VERSION: the version resource (VS_FILE_INFO). */
    public static final int RT_VERSION = 16;
    /** Entries one directory may have: far more than an image's resources of one type (and the u16 counts allow 131070). */
    static final int MAX_ENTRIES = 4096;
    /** The longest name compared, in UTF-16 code units (dbgutil.cpp compares at most 50). */
    static final int MAX_NAME = 256;
    /** The most bytes a resource's data may claim: far more than a version resource (about 1 KB) or a DAC table (about 1 KB). */
    static final long MAX_DATA = 1L << 24;
    private static final int DIRECTORY_SIZE = 16;
    private static final int ENTRY_SIZE = 8;
    private static final int DATA_ENTRY_SIZE = 16;
    private static final long HIGH_BIT = 0x8000_0000L;

    private final PeImageHeaders headers;
    private final long rva;
    private final long size;

    private PeResourceDirectory(PeImageHeaders headers, long rva, long size) {
        this.headers = headers;
        this.rva = rva;
        this.size = size;
    }

    /**
     * The resource directory of the image at {@code base}, or empty when the image has none.
     *
     * @throws ModuleFormatException  when the headers are not a PE32+ AMD64 image's, or the directory lies outside it
     * @throws MissingMemoryException when bytes the headers need are not in {@code memory}
     */
    public static Optional<PeResourceDirectory> inMemory(Memory memory, long base) throws ModuleFormatException {
        return of(PeImageHeaders.read(memory, base));
    }

    /** The resource directory of an image whose headers are read, or empty when it has none. */
    public static Optional<PeResourceDirectory> of(PeImageHeaders headers) throws ModuleFormatException {
        PeImageHeaders.DataDirectory d = headers.directory(PeImageHeaders.RESOURCE_DIRECTORY);
        if (!d.present()) {
            return Optional.empty();
        }
        headers.requireInImage(d.rva(), d.size(), d.at(), "the resource directory");
        if (d.size() < DIRECTORY_SIZE) {
            throw headers.error(d.at(), String.format("the resource directory is %d bytes: less than one IMAGE_RESOURCE_DIRECTORY (%d)",
                    d.size(), DIRECTORY_SIZE));
        }
        return Optional.of(new PeResourceDirectory(headers, d.rva(), d.size()));
    }

    /** The address of the resource directory's root. */
    public long address() {
        return headers.base() + rva;
    }

    /** The resource data directory's size. */
    public long size() {
        return size;
    }

    /**
     * A resource's key at one level: an id ({@code 16}) or a name ({@code "COREXTERNALDATAACCESSRESOURCE"}).
     *
     * @param id   the id, when {@code name} is empty
     * @param name the name, or empty for an id
     */
    public record Key(int id, String name) {

        public Key {
            Objects.requireNonNull(name, "name");
            if (name.length() > MAX_NAME) {
                throw new IllegalArgumentException("a resource name of " + name.length() + " characters: more than " + MAX_NAME);
            }
        }

        public static Key id(int id) {
            return new Key(id, "");
        }

        public static Key name(String name) {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("an empty resource name");
            }
            return new Key(0, name);
        }

        boolean named() {
            return !name.isEmpty();
        }

        @Override
        public String toString() {
            return named() ? name : Integer.toString(id);
        }
    }

    /**
     * A resource found: its data in the image, and the path taken to it.
     *
     * @param type      the type's key
     * @param name      the name's key
     * @param language  the language id of the first language entry
     * @param entry     the address of its IMAGE_RESOURCE_DATA_ENTRY
     * @param address   the address of its data (base + OffsetToData)
     * @param size      its data's size in bytes
     * @param codePage  the entry's CodePage
     */
    public record Resource(Key type, Key name, int language, long entry, long address, long size, long codePage) {
    }

    /**
     * The resource of type {@code type} and name {@code name}, in its first language (the pre-7 DAC asked for language
     * 0; a version resource is in the module's own language, 0x409 for the .NET runtime's), or empty when there is none.
     *
     * @throws ModuleFormatException  when the tree on the way is corrupt (its address named)
     * @throws MissingMemoryException when bytes on the way are not in the memory
     */
    public Optional<Resource> find(Key type, Key name) throws ModuleFormatException {
        Optional<Entry> byType = entry(0, type, "type");
        if (byType.isEmpty()) {
            return Optional.empty();
        }
        long names = directoryOf(byType.get(), "type " + type, 0);
        Optional<Entry> byName = entry(names, name, "name");
        if (byName.isEmpty()) {
            return Optional.empty();
        }
        long languages = directoryOf(byName.get(), "name " + name, 0, names);
        List<Entry> all = entries(languages, "language");
        if (all.isEmpty()) {
            return Optional.empty();
        }
        Entry first = all.getFirst();
        if (first.directory()) {
            throw headers.error(first.at(), String.format("the language entry of %s/%s points at a directory (offset 0x%x): the tree has only "
                    + "three levels (type, name, language)", type, name, first.target()));
        }
        return Optional.of(data(type, name, first));
    }

    /** One IMAGE_RESOURCE_DIRECTORY_ENTRY: where it is, its key word and its target word. */
    private record Entry(long at, long key, long target) {

        boolean named() {
            return (key & HIGH_BIT) != 0;
        }

        boolean directory() {
            return (target & HIGH_BIT) != 0;
        }

        long offset() {
            return target & ~HIGH_BIT;
        }
    }

    /** The entries of the directory at {@code offset} (relative to the root), named ones first. */
    private List<Entry> entries(long offset, String level) throws ModuleFormatException {
        requireInDirectory(offset, DIRECTORY_SIZE, "the " + level + " directory");
        long at = address() + offset;
        int named = headers.memory().readU16(at + 12);
        int ids = headers.memory().readU16(at + 14);
        if (named + ids > MAX_ENTRIES) {
            throw headers.error(at + 12, String.format("the %s directory lists %d named and %d id entries: more than %d", level, named, ids, MAX_ENTRIES));
        }
        int count = named + ids;
        requireInDirectory(offset + DIRECTORY_SIZE, (long) ENTRY_SIZE * count, "the " + count + " entries of the " + level + " directory");
        List<Entry> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long e = at + DIRECTORY_SIZE + (long) ENTRY_SIZE * i;
            list.add(new Entry(e, headers.memory().readU32(e), headers.memory().readU32(e + 4)));
        }
        return list;
    }

    /** The entry of {@code wanted} in the directory at {@code offset}: by name among the named entries, by id among the others. */
    private Optional<Entry> entry(long offset, Key wanted, String level) throws ModuleFormatException {
        for (Entry e : entries(offset, level)) {
            if (e.named() != wanted.named()) {
                continue;
            }
            if (wanted.named() ? nameIs(e, wanted.name()) : e.key() == wanted.id()) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /**
     * The offset of the next level's directory an entry of the type or name level points at, which must not be one of
     * the directories above it ({@code above}: a cycle).
     */
    private long directoryOf(Entry e, String what, long... above) throws ModuleFormatException {
        if (!e.directory()) {
            throw headers.error(e.at(), String.format("the entry of %s points at a data entry (offset 0x%x) where the next level's directory "
                    + "belongs", what, e.offset()));
        }
        for (long a : above) {
            if (a == e.offset()) {
                throw headers.error(e.at(), String.format("the entry of %s points back at the directory at offset 0x%x above it: a cycle",
                        what, e.offset()));
            }
        }
        return e.offset();
    }

    /** True when the entry's name is {@code wanted}: reads the length, and the code units only when the lengths agree. */
    private boolean nameIs(Entry e, String wanted) throws ModuleFormatException {
        long offset = e.key() & ~HIGH_BIT;
        requireInDirectory(offset, 2, "the name of the entry at " + String.format("0x%x", e.at()));
        int length = headers.memory().readU16(address() + offset);
        if (length != wanted.length()) {
            return false; // a longer name than MAX_NAME never equals one we look up, and is never read
        }
        requireInDirectory(offset + 2, 2L * length, "the name of the entry at " + String.format("0x%x", e.at()));
        byte[] units = headers.memory().readBytes(address() + offset + 2, 2 * length);
        return new String(units, StandardCharsets.UTF_16LE).equals(wanted);
    }

    private Resource data(Key type, Key name, Entry language) throws ModuleFormatException {
        long offset = language.offset();
        requireInDirectory(offset, DATA_ENTRY_SIZE, "the data entry of " + type + "/" + name);
        long entry = address() + offset;
        long dataRva = headers.memory().readU32(entry);
        long dataSize = headers.memory().readU32(entry + 4);
        if (dataSize > MAX_DATA) {
            throw headers.error(entry + 4, String.format("the data of resource %s/%s claims %d bytes: more than %d", type, name, dataSize, MAX_DATA));
        }
        headers.requireInImage(dataRva, dataSize, entry, "the data of resource " + type + "/" + name);
        return new Resource(type, name, (int) language.key(), entry, headers.base() + dataRva, dataSize, headers.memory().readU32(entry + 8));
    }

    private void requireInDirectory(long offset, long length, String what) throws ModuleFormatException {
        if (offset < 0 || length < 0 || offset > size || length > size - offset) {
            throw headers.error(address() + Math.min(offset, size), String.format("%s (0x%x bytes at offset 0x%x) is outside the resource "
                    + "directory (0x%x bytes at 0x%x)", what, length, offset, size, address()));
        }
    }

    @Override
    public String toString() {
        return String.format("PeResourceDirectory[at 0x%x, 0x%x bytes, image at 0x%x]", address(), size, headers.base());
    }
}
