package io.clrheap.emulator.module;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Lays out a minimal x86-64 ELF shared object at a fixed base address, as mapped in a process: a read-only part
 * (ELF header, program headers, .dynsym, .dynstr, .gnu.hash, .dynamic), an executable part (.text), a read-write part
 * (.data) and zero-filled .bss after it. The layout is fixed, so addresses handed out by {@code reserve*} are final
 * at once and callers can wire pointers before {@link #build()}. Facts: the System V gABI (ELF header, program
 * headers, dynamic section, symbol table) and the GNU hash section format (hash h = h * 33 + c from 5381, a bloom
 * filter of 64-bit words, buckets, chains whose low bit ends a bucket).
 *
 * <p>For {@link Platform#WINDOWS} the same parts, at the same offsets, make a PE32+ image instead: only the
 * read-only header part differs (DOS header, PE headers, section table and export directory: {@link PeHeaders}),
 * so every address a caller reserved is the same on both platforms.
 */
public final class ModuleImageBuilder {

    public static final long TEXT = 0x10000;
    public static final long DATA = 0x20000;
    static final long BSS = 0x60000;
    private static final int MAX_SYMBOLS = 4096;
    private static final int MAX_NAME = 4096;
    private static final int SYMBOL_SIZE = 24;
    private static final long PAGE = 0x1000;

    /**
     * An exported symbol: its name, address in the process and size in bytes (ELF {@code st_size}; PE exports have
     * none), and the ordinal a PE module definition file fixes for it ({@code @2}), 0 where the linker chooses.
     */
    record Export(String name, long address, long size, int ordinal) {
    }

    private final String path;
    private final long base;
    private final Platform platform;
    private long textNext = TEXT;
    private long dataNext = DATA;
    private long bssNext = BSS;
    private final List<Export> exports = new ArrayList<>();
    /** Initialized data and code: bytes the image holds in .data or .text from the start, in the file as in memory, by link address. */
    private final java.util.Map<Long, byte[]> initialized = new java.util.LinkedHashMap<>();
    /** The CodeView record of a PE image's debug directory, where one is given. */
    private CodeViewRecord codeView;
    /** The file version of a PE image's version resource, where one is given. */
    private FileVersion versionResource;

    /** An ELF shared object ({@code libcoreclr.so}) at {@code base}. */
    public ModuleImageBuilder(String path, long base) {
        this(path, base, Platform.LINUX);
    }

    /** An ELF shared object (Linux) or a PE32+ image (Windows) at {@code base}, a multiple of 64 KiB. */
    public ModuleImageBuilder(String path, long base, Platform platform) {
        if ((base & 0xffff) != 0) {
            throw new IllegalArgumentException(String.format("module base 0x%x is not 64 KiB aligned", base));
        }
        this.path = path;
        this.base = base;
        this.platform = java.util.Objects.requireNonNull(platform, "platform");
    }

    private long reserve(String part, long next, long limit, long size, int alignment, java.util.function.LongConsumer advance) {
        long at = (next + alignment - 1) & -(long) alignment;
        if (size < 0 || (limit > 0 && at + size > limit)) {
            throw new IllegalStateException(String.format("%s of %s is full: %d more bytes do not fit below link address 0x%x", part, path, size, limit));
        }
        advance.accept(at + size);
        return base + at;
    }

    public long reserveText(long size, int alignment) {
        return reserve(".text", textNext, DATA, size, alignment, v -> textNext = v);
    }

    public long reserveData(long size, int alignment) {
        return reserve(".data", dataNext, BSS, size, alignment, v -> dataNext = v);
    }

    /**
     * Reserves room for {@code bytes} in .data and puts them there: initialized data, in the module's file as in its
     * mapping (a {@code static char[]} such as the runtime's sccsid string).
     */
    public long initializedData(byte[] bytes, int alignment) {
        long at = reserveData(bytes.length, alignment);
        initialized.put(at - base, bytes.clone());
        return at;
    }

    /**
     * Reserves room for {@code bytes} in .text and puts them there: code the image holds from the start (a function's
     * body).
     */
    public long initializedText(byte[] bytes, int alignment) {
        long at = reserveText(bytes.length, alignment);
        initialized.put(at - base, bytes.clone());
        return at;
    }

    /** The module's file path. */
    public String path() {
        return path;
    }

    /** Whether this is an ELF shared object (Linux) or a PE32+ image (Windows). */
    public Platform platform() {
        return platform;
    }

    /**
     * The CodeView record the PE image's debug directory holds (IMAGE_DEBUG_TYPE_CODEVIEW): the PDB a debugger or a
     * symbol server matches the image with. Windows only; an ELF image has its GNU build id instead.
     */
    public ModuleImageBuilder codeView(CodeViewRecord record) {
        if (platform != Platform.WINDOWS) {
            throw new IllegalStateException("a CodeView record belongs to a PE image, and " + path + " is " + platform);
        }
        this.codeView = java.util.Objects.requireNonNull(record, "record");
        return this;
    }

    /**
     * The file version the PE image's version resource (RT_VERSION, a VS_FIXEDFILEINFO) holds: what a debugger names
     * the module's build by when the dump's module list does not say. Windows only.
     */
    public ModuleImageBuilder versionResource(FileVersion version) {
        if (platform != Platform.WINDOWS) {
            throw new IllegalStateException("a version resource belongs to a PE image, and " + path + " is " + platform);
        }
        this.versionResource = java.util.Objects.requireNonNull(version, "version");
        return this;
    }

    public long reserveBss(long size, int alignment) {
        return reserve(".bss", bssNext, 0, size, alignment, v -> bssNext = v);
    }

    public ModuleImageBuilder export(String name, long address, long size) {
        return export(name, address, size, 0);
    }

    /**
     * Exports {@code name} with the ordinal a PE module definition file fixes for it ({@code g_CLREngineMetrics @2}),
     * or 0 for one the linker chooses. ELF symbols have no ordinals: there it is ignored.
     */
    public ModuleImageBuilder export(String name, long address, long size, int ordinal) {
        if (ordinal < 0 || ordinal > 0xffff) {
            throw new IllegalArgumentException("an export ordinal is 1..65535 (0: the linker's choice), not " + ordinal);
        }
        if (ordinal != 0 && exports.stream().anyMatch(e -> e.ordinal() == ordinal)) {
            throw new IllegalArgumentException("ordinal " + ordinal + " is exported twice");
        }
        if (exports.size() >= MAX_SYMBOLS) {
            throw new IllegalArgumentException("more than " + MAX_SYMBOLS + " exported symbols");
        }
        if (name.isEmpty() || name.length() > MAX_NAME) {
            throw new IllegalArgumentException("symbol name of " + name.length() + " characters (1.." + MAX_NAME + ")");
        }
        if (Long.compareUnsigned(address - base, bssNext) >= 0) {
            throw new IllegalArgumentException(String.format("%s at 0x%x is outside the module [0x%x, 0x%x)", name, address, base, base + bssNext));
        }
        exports.add(new Export(name, address, size, ordinal));
        return this;
    }

    /** The names exported so far. */
    public java.util.Set<String> exportedNames() {
        java.util.Set<String> names = new java.util.TreeSet<>();
        exports.forEach(e -> names.add(e.name()));
        return java.util.Collections.unmodifiableSet(names);
    }

    static long gnuHash(String name) {
        long h = 5381;
        for (byte c : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h * 33 + (c & 0xff)) & 0xffffffffL;
        }
        return h;
    }

    public ModuleImage build() {
        if (platform == Platform.WINDOWS) {
            return buildPe();
        }
        int n = exports.size();
        int nbuckets = Math.max(1, n);
        // GNU hash wants the hashed symbols ordered by bucket
        List<Export> ordered = new ArrayList<>(exports);
        ordered.sort(Comparator.comparingLong((Export e) -> gnuHash(e.name) % nbuckets).thenComparing(Export::name));
        byte[] soname = path.substring(path.lastIndexOf('/') + 1).getBytes(StandardCharsets.UTF_8);

        // .dynstr: "\0", the soname, then the symbol names
        ByteBuffer strings = ByteBuffer.allocate(1 + soname.length + 1 + ordered.stream().mapToInt(e -> e.name.length() * 3 + 1).sum());
        strings.put((byte) 0);
        int sonameOffset = strings.position();
        strings.put(soname).put((byte) 0);
        int[] nameOffsets = new int[n];
        for (int i = 0; i < n; i++) {
            nameOffsets[i] = strings.position();
            strings.put(ordered.get(i).name.getBytes(StandardCharsets.UTF_8)).put((byte) 0);
        }
        int strsz = strings.position();

        int phnum = 6;
        long dynsym = align(64 + 56L * phnum, 64);
        long dynstr = dynsym + (long) SYMBOL_SIZE * (n + 1);
        long gnuHash = align(dynstr + strsz, 8);
        int bloomWords = 1;
        long gnuHashSize = 16 + 8L * bloomWords + 4L * nbuckets + 4L * n;
        long dynamic = align(gnuHash + gnuHashSize, 8);
        int dynamicEntries = 7;
        // a GNU build-id note (what eu-unstrip and debuggers match a module by): owner "GNU", NT_GNU_BUILD_ID 3, 20 bytes
        long buildIdNote = dynamic + 16L * dynamicEntries;
        long buildIdNoteSize = 12 + 4 + BUILD_ID_SIZE;
        long headerEnd = buildIdNote + buildIdNoteSize;
        if (headerEnd > TEXT) {
            throw new IllegalStateException("the header part of " + path + " overflows: " + headerEnd + " bytes of symbols and strings");
        }
        long bssEnd = align(bssNext, PAGE);

        ByteBuffer image = ByteBuffer.allocate((int) BSS).order(ByteOrder.LITTLE_ENDIAN);
        // ELF header (gABI): ELFCLASS64, ELFDATA2LSB, EV_CURRENT, ELFOSABI_SYSV; ET_DYN, EM_X86_64
        image.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
        image.position(16);
        image.putShort((short) 3).putShort((short) 62).putInt(1).putLong(0).putLong(64).putLong(0).putInt(0)
                .putShort((short) 64).putShort((short) 56).putShort((short) phnum).putShort((short) 64).putShort((short) 0).putShort((short) 0);
        // program headers: PT_LOAD r, PT_LOAD r-x, PT_LOAD rw- (.data, then .bss in p_memsz), PT_DYNAMIC, PT_NOTE, PT_GNU_STACK
        image.position(64);
        phdr(image, 1, 4, 0, TEXT, TEXT);
        phdr(image, 1, 5, TEXT, DATA - TEXT, DATA - TEXT);
        phdr(image, 1, 6, DATA, BSS - DATA, bssEnd - DATA);
        phdr(image, 2, 4, dynamic, 16L * dynamicEntries, 16L * dynamicEntries);
        phdr(image, 4, 4, buildIdNote, buildIdNoteSize, buildIdNoteSize);
        phdr(image, 0x6474e551, 6, 0, 0, 0);
        image.position((int) buildIdNote);
        image.putInt(4).putInt(BUILD_ID_SIZE).putInt(3).put(new byte[] {'G', 'N', 'U', 0}).put(buildId(path));

        // .dynsym: the null symbol, then the exports (STB_GLOBAL; STT_FUNC in .text, else STT_OBJECT; a defined section index)
        image.position((int) dynsym + SYMBOL_SIZE);
        for (int i = 0; i < n; i++) {
            Export e = ordered.get(i);
            long link = e.address - base;
            boolean code = link >= TEXT && link < DATA;
            image.putInt(nameOffsets[i]).put((byte) ((1 << 4) | (code ? 2 : 1))).put((byte) 0).putShort((short) (code ? 2 : 3))
                    .putLong(link).putLong(e.size);
        }
        image.position((int) dynstr);
        image.put(strings.array(), 0, strsz);

        // .gnu.hash: nbuckets, symoffset 1, one bloom word (shift 6), buckets, chains
        image.position((int) gnuHash);
        image.putInt(nbuckets).putInt(1).putInt(bloomWords).putInt(6);
        long bloom = 0;
        for (Export e : ordered) {
            long h = gnuHash(e.name);
            bloom |= 1L << (h % 64);
            bloom |= 1L << ((h >>> 6) % 64);
        }
        image.putLong(bloom);
        int[] buckets = new int[nbuckets];
        for (int i = n - 1; i >= 0; i--) {
            buckets[(int) (gnuHash(ordered.get(i).name) % nbuckets)] = i + 1;
        }
        for (int b : buckets) {
            image.putInt(b);
        }
        for (int i = 0; i < n; i++) {
            long h = gnuHash(ordered.get(i).name);
            boolean last = i + 1 == n || gnuHash(ordered.get(i + 1).name) % nbuckets != h % nbuckets;
            image.putInt((int) (last ? h | 1 : h & ~1L));
        }

        putInitialized(image);
        byte[] file = dynamicSection(image, dynamic, 0, gnuHash, dynstr, dynsym, strsz, sonameOffset);
        byte[] mapped = dynamicSection(image, dynamic, base, gnuHash, dynstr, dynsym, strsz, sonameOffset);
        return new ModuleImage(path, base, base + bssEnd, mapped, file, Platform.LINUX, 0);
    }

    /**
     * The PE32+ image: the header part written by {@link PeHeaders}, the rest as reserved. A PE file whose file
     * alignment is its section alignment and whose sections start at file offset = RVA is laid out as it is mapped,
     * so the file bytes are the mapped bytes (.bss is the zero-filled tail of .data's virtual size, not in the file).
     */
    private ModuleImage buildPe() {
        long bssEnd = align(bssNext, PAGE);
        String fileName = path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
        int timeDateStamp = PeHeaders.timeDateStamp(path);
        ByteBuffer image = ByteBuffer.allocate((int) BSS).order(ByteOrder.LITTLE_ENDIAN);
        PeHeaders.write(image, fileName, base, timeDateStamp, TEXT, DATA, BSS, bssEnd, exports, java.util.Optional.ofNullable(codeView),
                java.util.Optional.ofNullable(versionResource));
        putInitialized(image);
        byte[] bytes = image.array();
        return new ModuleImage(path, base, base + bssEnd, bytes, bytes.clone(), Platform.WINDOWS, timeDateStamp);
    }

    private void putInitialized(ByteBuffer image) {
        initialized.forEach((link, bytes) -> image.put(Math.toIntExact(link), bytes));
    }

    /** The image with its .dynamic written, d_ptr values rebased by {@code bias} (0: as in the file). */
    private static byte[] dynamicSection(ByteBuffer image, long dynamic, long bias, long gnuHash, long dynstr, long dynsym,
                                         int strsz, int soname) {
        ByteBuffer copy = ByteBuffer.wrap(image.array().clone()).order(ByteOrder.LITTLE_ENDIAN);
        copy.position((int) dynamic);
        copy.putLong(0x6ffffef5L).putLong(bias + gnuHash);  // DT_GNU_HASH
        copy.putLong(5).putLong(bias + dynstr);              // DT_STRTAB
        copy.putLong(6).putLong(bias + dynsym);              // DT_SYMTAB
        copy.putLong(10).putLong(strsz);                     // DT_STRSZ
        copy.putLong(11).putLong(SYMBOL_SIZE);               // DT_SYMENT
        copy.putLong(14).putLong(soname);                    // DT_SONAME
        copy.putLong(0).putLong(0);                          // DT_NULL
        return copy.array();
    }

    private static final int BUILD_ID_SIZE = 20;

    /** A build id that depends only on the module's path (which names the runtime version): SHA-1 of it, as a linker's default 160-bit id. */
    private static byte[] buildId(String path) {
        try {
            return java.security.MessageDigest.getInstance("SHA-1").digest(path.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void phdr(ByteBuffer b, int type, int flags, long offset, long filesz, long memsz) {
        b.putInt(type).putInt(flags).putLong(offset).putLong(offset).putLong(offset).putLong(filesz).putLong(memsz)
                .putLong(type == 1 ? 0x10000 : type == 4 ? 4 : 8);
    }

    private static long align(long v, long a) {
        return (v + a - 1) & -a;
    }
}
