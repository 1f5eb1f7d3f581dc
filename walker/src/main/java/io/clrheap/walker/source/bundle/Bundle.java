package io.clrheap.walker.source.bundle;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.source.InProgressFiles;
import io.clrheap.walker.source.MappedDump;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.ThreadSource;
import io.clrheap.walker.source.RangeMemory;
import io.clrheap.walker.source.TypeNameTable;
import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.source.elf.MappedFile;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A fixture bundle ({@code NAME.clrheap.tar.xz}, written by clrheap's generator) as a {@link Memory}: the process
 * memory it holds, the runtime module's file mappings (give them to
 * {@link io.clrheap.walker.runtime.TargetOpener#open} as for an ELF core), the type names and the answer files.
 *
 * <p>Opening reads the archive once, safely: the first entry must be {@code manifest.json}, which is checked (see
 * {@link BundleManifest}) and whose sizes are checked against {@link BundleLimits} before anything else is extracted;
 * then every entry must be a regular file with a safe name (relative; no {@code ..}, backslash, NUL or control
 * character), listed in the manifest, seen once, of the listed size and SHA-256 digest. Links, devices and
 * directories are refused; decompression stops as soon as the archive runs past what the manifest declares. Every
 * problem is a {@link DumpFormatException} naming the bundle and the entry.
 *
 * <p>The entries are extracted into one temporary file in the system temporary directory ({@code java.io.tmpdir}),
 * sparse where the memory is zero, memory-mapped with {@code java.lang.foreign} (no copy on the Java heap; multi-GiB
 * memory works) and unlinked at once where the system allows it (Linux), else deleted on {@link #close()}. A read
 * outside the memory ranges throws {@link MissingMemoryException} naming the address. Reads are safe from several
 * threads; after {@link #close()} they throw {@link IllegalStateException}.
 */
public final class Bundle extends MappedDump implements AutoCloseable, ThreadSource {

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final String name;
    private final BundleManifest manifest;
    private final Arena arena;
    private final MemorySegment data;
    /** The temporary file, while it still exists (null once unlinked). */
    private final Path temp;
    private final Map<String, Long> offsets;
    private final Map<Long, String> typeNames;
    private final List<String> answerNames;
    private final AtomicBoolean closed = new AtomicBoolean();


    private Bundle(Path path, BundleManifest manifest, Arena arena, MemorySegment data, Path temp, Map<String, Long> offsets)
            throws DumpFormatException {
        super(new RangeMemory(String.valueOf(path.getFileName()), data, manifest.memory().stream()
                .map(r -> new RangeMemory.Range(r.start(), r.length(), r.length(), offsets.get(r.entry()))).toList()));
        this.path = path;
        this.name = String.valueOf(path.getFileName());
        this.manifest = manifest;
        this.arena = arena;
        this.data = data;
        this.temp = temp;
        this.offsets = offsets;
        typeNames = parseTypeNames();
        List<String> answers = new ArrayList<>();
        for (BundleEntry e : manifest.entries()) {
            if (e.name().startsWith(EntryNames.ANSWER)) {
                answers.add(e.name().substring(EntryNames.ANSWER.length()));
            }
        }
        Collections.sort(answers);
        answerNames = List.copyOf(answers);
    }

    /** A memory limit for sniffing: a hostile dictionary size must not cost a GiB just to look. */
    private static final int SNIFF_XZ_MEMORY_LIMIT_KIB = 256 * 1024;

    /**
     * Whether {@code file} looks like a fixture bundle: an xz stream whose first 512 bytes are a ustar header (a
     * {@code core.xz} starts with an ELF header instead). A file that is not a readable xz stream is not a bundle.
     */
    public static boolean isBundle(Path file) throws IOException {
        byte[] magic = new byte[6];
        try (InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(magic, 0, 6) < 6 || (magic[0] & 0xff) != 0xfd || magic[1] != '7' || magic[2] != 'z' || magic[3] != 'X' || magic[4] != 'Z') {
                return false;
            }
        }
        try (InputStream in = new org.tukaani.xz.XZInputStream(Files.newInputStream(file), SNIFF_XZ_MEMORY_LIMIT_KIB)) {
            byte[] header = in.readNBytes(512);
            return header.length == 512 && new String(header, 257, 5, StandardCharsets.US_ASCII).equals("ustar");
        } catch (IOException e) {
            return false; // not a readable xz stream: the ELF reader says what is wrong with it
        }
    }

    /** Opens {@code file} with the {@link BundleLimits#DEFAULT default limits}. */
    public static Bundle open(Path file) throws IOException {
        return open(file, BundleLimits.DEFAULT);
    }

    /**
     * Opens {@code file}, extracting it to a temporary file in {@code java.io.tmpdir}.
     *
     * @throws DumpFormatException when the bundle is not one this reader accepts, naming the bundle and the entry
     * @throws IOException         when the bundle cannot be read or the temporary file written
     */
    public static Bundle open(Path file, BundleLimits limits) throws IOException {
        return open(file, limits, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** As {@link #open(Path, BundleLimits)}, extracting into {@code tempDir}. */
    static Bundle open(Path file, BundleLimits limits, Path tempDir) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(limits, "limits");
        BundleExtractor.Extracted extracted = BundleExtractor.extract(file, limits, tempDir);
        Arena arena = Arena.ofShared();
        try {
            MemorySegment data;
            try (FileChannel channel = FileChannel.open(extracted.file(), StandardOpenOption.READ)) {
                data = channel.map(FileChannel.MapMode.READ_ONLY, 0, extracted.size(), arena);
            }
            Path temp = extracted.file();
            try {
                Files.delete(temp); // the mapping keeps the bytes; nothing is left behind if the JVM dies
                InProgressFiles.unregister(temp);
                temp = null;
            } catch (IOException e) {
                // a system that cannot unlink a mapped file: deleted on close
            }
            return new Bundle(file, extracted.manifest(), arena, data, temp, extracted.offsets());
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            InProgressFiles.deleteQuietly(extracted.file(), e);
            throw e;
        }
    }

    /** The bundle file. */
    public Path path() {
        return path;
    }

    /** The threads the manifest lists, with their registers and stack bases; none in a bundle written before threads were. */
    @Override
    public List<OsThread> osThreads() {
        return manifest.threads();
    }

    /** The checked manifest. */
    public BundleManifest manifest() {
        return manifest;
    }

    /** The runtime module's file mappings, as an ELF core's {@code NT_FILE} note would list them. */
    public List<MappedFile> mappedFiles() {
        return manifest.mappedFiles();
    }

    /**
     * MethodTable → type name, from {@code type-names.txt}, in MethodTable order (empty when the bundle has none); held
     * compactly ({@link TypeNameTable}), a string made per name asked for.
     */
    public Map<Long, String> typeNames() {
        return typeNames;
    }

    /** The answer files, by their path under {@code answer/} (e.g. {@code objects.tsv}), sorted. */
    public List<String> answerNames() {
        return answerNames;
    }

    /** The size of the answer file {@code answerName} (a name from {@link #answerNames()}). */
    public long answerSize(String answerName) {
        return entry(EntryNames.ANSWER + answerName).size();
    }

    /** The bytes of the answer file {@code answerName} (a name from {@link #answerNames()}), streamed from the mapping. */
    public InputStream openAnswer(String answerName) {
        return new SegmentInputStream(slice(entry(EntryNames.ANSWER + answerName)));
    }

    private BundleEntry entry(String entryName) {
        for (BundleEntry e : manifest.entries()) {
            if (e.name().equals(entryName)) {
                return e;
            }
        }
        throw new IllegalArgumentException("no entry " + entryName + " in " + name + "; its answer files: " + answerNames);
    }

    private MemorySegment slice(BundleEntry entry) {
        return data.asSlice(offsets.get(entry.name()), entry.size());
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        arena.close();
        if (temp != null) {
            try {
                Files.deleteIfExists(temp);
                InProgressFiles.unregister(temp);
            } catch (IOException e) {
                temp.toFile().deleteOnExit();
            }
        }
    }

    private Map<Long, String> parseTypeNames() throws DumpFormatException {
        BundleEntry entry = manifest.entries().stream().filter(e -> e.name().equals(EntryNames.TYPE_NAMES)).findFirst()
                .orElse(null);
        if (entry == null) {
            return Map.of();
        }
        try {
            // parsed from the mapping into compact storage: no string of the file or of a line is kept
            return TypeNameTable.parse(slice(entry), TypeNameTable.Syntax.SIDECAR, true);
        } catch (TypeNameTable.MalformedLineException e) {
            String what = switch (e.problem()) {
                case MALFORMED -> "expected '0x<MethodTable> <type name>', found '" + TarReader.printable(e.found()) + "'";
                case NAMED_TWICE -> String.format("MethodTable 0x%x is named twice", e.methodTable());
                default -> e.getMessage().substring(e.getMessage().indexOf(": ") + 2);
            };
            throw new DumpFormatException(String.format("%s: entry %s line %d: %s", path, EntryNames.TYPE_NAMES, e.line(), what));
        }
    }


    @Override
    public String describe() {
        return name;
    }

    @Override
    public String toString() {
        return "Bundle[" + path + ", " + manifest.memory().size() + " memory ranges, " + answerNames.size() + " answer files]";
    }
}
