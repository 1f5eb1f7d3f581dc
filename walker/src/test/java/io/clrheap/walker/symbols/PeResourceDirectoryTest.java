package io.clrheap.walker.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.memory.SegmentMemory;
import io.clrheap.walker.runtime.DacTableResource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The resource directory of a PE image read from memory, on images built here from the PE Format specification's
 * ".rsrc Section": a root of types (RT_RCDATA 10, RT_VERSION 16), a name level (the DAC table resource by name, the
 * version resource by id 1) and a language level whose entries point at IMAGE_RESOURCE_DATA_ENTRYs.
 */
class PeResourceDirectoryTest {

    private static final long BASE = 0x7ffa_3000_0000L;
    private static final int SIZE = 0x4000;
    private static final int NT = 0x80;
    private static final int OPTIONAL = NT + 24;
    /** The resource directory's RVA, and its parts' offsets from it. */
    private static final int RSRC = 0x1000;
    private static final int ROOT = 0;
    private static final int RCDATA_NAMES = 0x20;
    private static final int VERSION_NAMES = 0x48;
    private static final int TABLE_LANGUAGES = 0x60;
    private static final int OTHER_LANGUAGES = 0x78;
    private static final int VERSION_LANGUAGES = 0x90;
    private static final int TABLE_DATA = 0xa8;
    private static final int OTHER_DATA = 0xb8;
    private static final int VERSION_DATA = 0xc8;
    private static final int TABLE_NAME = 0xd8;
    private static final int OTHER_NAME = 0x118;
    private static final int RSRC_SIZE = 0x200;
    /** The resources' data (image RVAs). */
    private static final int TABLE = 0x2000;
    private static final int VERSION = 0x2100;
    private static final long DIR = 0x8000_0000L;

    private static ByteBuffer headers() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(0, (short) 0x5a4d).putInt(0x3c, NT);
        b.put(NT, new byte[] {'P', 'E', 0, 0}).putShort(NT + 4, (short) 0x8664).putShort(NT + 20, (short) 240);
        b.putShort(OPTIONAL, (short) 0x20b).putInt(OPTIONAL + 56, SIZE).putInt(OPTIONAL + 108, 16);
        b.putInt(OPTIONAL + 112 + 2 * 8, RSRC).putInt(OPTIONAL + 112 + 2 * 8 + 4, RSRC_SIZE);
        return b;
    }

    private static void directory(ByteBuffer b, int offset, int named, int ids) {
        b.putShort(RSRC + offset + 12, (short) named).putShort(RSRC + offset + 14, (short) ids);
    }

    private static void entry(ByteBuffer b, int directory, int index, long key, long target) {
        b.putInt(RSRC + directory + 16 + 8 * index, (int) key).putInt(RSRC + directory + 16 + 8 * index + 4, (int) target);
    }

    private static void name(ByteBuffer b, int offset, String name) {
        b.putShort(RSRC + offset, (short) name.length()).put(RSRC + offset + 2, name.getBytes(StandardCharsets.UTF_16LE));
    }

    /**
     * RT_RCDATA with two named resources, "OTHERRESOURCE" and "COREXTERNALDATAACCESSRESOURCE" (a DacTableHeader of 3
     * globals and 1 vtable, then their RVAs), and RT_VERSION 1 in language 0x409 (VS_VERSIONINFO, file version
     * 8.0.3026.36720); {@code patch} alters it afterwards.
     */
    private static SegmentMemory image(Consumer<ByteBuffer> patch) {
        ByteBuffer b = headers();
        directory(b, ROOT, 0, 2);
        entry(b, ROOT, 0, PeResourceDirectory.RT_RCDATA, DIR | RCDATA_NAMES);
        entry(b, ROOT, 1, PeResourceDirectory.RT_VERSION, DIR | VERSION_NAMES);
        directory(b, RCDATA_NAMES, 2, 0);
        entry(b, RCDATA_NAMES, 0, DIR | OTHER_NAME, DIR | OTHER_LANGUAGES);
        entry(b, RCDATA_NAMES, 1, DIR | TABLE_NAME, DIR | TABLE_LANGUAGES);
        name(b, OTHER_NAME, "OTHERRESOURCE");
        name(b, TABLE_NAME, DacTableResource.NAME);
        directory(b, VERSION_NAMES, 0, 1);
        entry(b, VERSION_NAMES, 0, 1, DIR | VERSION_LANGUAGES);
        directory(b, TABLE_LANGUAGES, 0, 1);
        entry(b, TABLE_LANGUAGES, 0, 0, TABLE_DATA);
        directory(b, OTHER_LANGUAGES, 0, 1);
        entry(b, OTHER_LANGUAGES, 0, 0, OTHER_DATA);
        directory(b, VERSION_LANGUAGES, 0, 1);
        entry(b, VERSION_LANGUAGES, 0, 0x409, VERSION_DATA);
        b.putInt(RSRC + TABLE_DATA, TABLE).putInt(RSRC + TABLE_DATA + 4, 24 + 4 * 4);
        b.putInt(RSRC + OTHER_DATA, 0x2080).putInt(RSRC + OTHER_DATA + 4, 8);
        b.putInt(RSRC + VERSION_DATA, VERSION).putInt(RSRC + VERSION_DATA + 4, 92).putInt(RSRC + VERSION_DATA + 8, 1200);
        // the DAC table: numGlobals 3, numVptrs 1, the CodeView stamp, then RVAs
        b.putInt(TABLE, 3).putInt(TABLE + 4, 1).putInt(TABLE + 8, 0x5eed);
        b.putInt(TABLE + 24, 0x3000).putInt(TABLE + 28, 0x3008).putInt(TABLE + 32, 0x3010).putInt(TABLE + 36, 0x1800);
        // VS_VERSIONINFO: wLength, wValueLength 52, wType 0, "VS_VERSION_INFO\0", padding to 40, VS_FIXEDFILEINFO
        b.putShort(VERSION, (short) 92).putShort(VERSION + 2, (short) 52).put(VERSION + 6, "VS_VERSION_INFO\0".getBytes(StandardCharsets.UTF_16LE));
        b.putInt(VERSION + 40, (int) VersionResource.SIGNATURE).putInt(VERSION + 44, 0x10000)
                .putInt(VERSION + 48, 8 << 16).putInt(VERSION + 52, (3026 << 16) | 36720)
                .putInt(VERSION + 56, 8 << 16).putInt(VERSION + 60, (3026 << 16) | 36720);
        patch.accept(b);
        SegmentMemory memory = SegmentMemory.allocate(BASE, SIZE, "test.dmp");
        memory.write(BASE, b.array(), 0, SIZE);
        return memory;
    }

    private static PeResourceDirectory directory(SegmentMemory memory) throws ModuleFormatException {
        return PeResourceDirectory.inMemory(memory, BASE).orElseThrow();
    }

    private static final PeResourceDirectory.Key RCDATA = PeResourceDirectory.Key.id(PeResourceDirectory.RT_RCDATA);

    @Test
    void findsANamedResourceAndItsDataAtBasePlusItsRva() throws Exception {
        PeResourceDirectory.Resource r = directory(image(b -> { })).find(RCDATA, PeResourceDirectory.Key.name(DacTableResource.NAME)).orElseThrow();
        assertThat(r.address()).isEqualTo(BASE + TABLE);
        assertThat(r.size()).isEqualTo(40);
        assertThat(r.language()).isZero();
        assertThat(r.entry()).isEqualTo(BASE + RSRC + TABLE_DATA);
    }

    @Test
    void theDacTableResourcesHeaderAndItsEntriesAreRvas() throws Exception {
        SegmentMemory memory = image(b -> { });
        DacTableResource table = DacTableResource.inMemory(memory, BASE).orElseThrow();
        assertThat(table.numGlobals()).isEqualTo(3);
        assertThat(table.numVptrs()).isEqualTo(1);
        assertThat(table.timestamp()).isEqualTo(0x5eed);
        assertThat(table.entry(memory, BASE, 0)).isEqualTo(BASE + 0x3000);
        assertThat(table.entry(memory, BASE, 3)).as("the vtable, after the globals").isEqualTo(BASE + 0x1800);
        assertThatThrownBy(() -> table.entry(memory, BASE, 4)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void anotherNameIsNotIt() throws Exception {
        PeResourceDirectory d = directory(image(b -> { }));
        assertThat(d.find(RCDATA, PeResourceDirectory.Key.name("COREXTERNALDATAACCESSRESOURCF"))).isEmpty();
        assertThat(d.find(RCDATA, PeResourceDirectory.Key.name("COREXTERNALDATAACCESS"))).isEmpty();
        assertThat(d.find(RCDATA, PeResourceDirectory.Key.name("OTHERRESOURCE")).orElseThrow().address()).isEqualTo(BASE + 0x2080);
        assertThat(d.find(RCDATA, PeResourceDirectory.Key.id(1))).as("an id is not looked for among named entries").isEmpty();
        assertThat(d.find(PeResourceDirectory.Key.id(3), PeResourceDirectory.Key.id(1))).as("no such type").isEmpty();
        // the table's name renamed: the image has no DAC table resource
        SegmentMemory renamed = image(b -> name(b, TABLE_NAME, "COREXTERNALDATAACCESSRESOURCX"));
        assertThat(DacTableResource.inMemory(renamed, BASE)).isEmpty();
    }

    @Test
    void aNameTooLongToBeOursIsNeitherReadNorMatched() throws Exception {
        // a length of 0xffff code units would run far past the directory: it is compared, never read
        SegmentMemory memory = image(b -> b.putShort(RSRC + OTHER_NAME, (short) 0xffff));
        assertThat(directory(memory).find(RCDATA, PeResourceDirectory.Key.name(DacTableResource.NAME))).isPresent();
    }

    @Test
    void theVersionResourceGivesTheFileVersion() throws Exception {
        VersionResource v = VersionResource.inMemory(image(b -> { }), BASE).orElseThrow();
        assertThat(v.fileVersion()).isEqualTo("8.0.3026.36720");
        assertThat(v.productVersion()).isEqualTo("8.0.3026.36720");
        assertThat(v.address()).isEqualTo(BASE + VERSION + 40);
    }

    @Test
    void aVersionResourceWithAWrongSignatureIsRefusedWithItsAddress() {
        assertThatThrownBy(() -> VersionResource.inMemory(image(b -> b.putInt(VERSION + 40, 0x1234)), BASE))
                .isInstanceOf(ModuleFormatException.class).hasMessageContaining("signature is 0x00001234")
                .hasMessageContaining(String.format("at 0x%x", BASE + VERSION + 40));
    }

    @Test
    void anImageWithoutAResourceDirectoryHasNone() throws Exception {
        SegmentMemory memory = image(b -> b.putInt(OPTIONAL + 112 + 16, 0).putInt(OPTIONAL + 112 + 20, 0));
        assertThat(PeResourceDirectory.inMemory(memory, BASE)).isEmpty();
        assertThat(DacTableResource.inMemory(memory, BASE)).isEmpty();
        assertThat(VersionResource.inMemory(memory, BASE)).isEmpty();
    }

    @Test
    void aCycleIsRefusedWithItsAddress() {
        // RT_RCDATA's name level points back at the root
        SegmentMemory memory = image(b -> entry(b, ROOT, 0, PeResourceDirectory.RT_RCDATA, DIR | ROOT));
        assertThatThrownBy(() -> directory(memory).find(RCDATA, PeResourceDirectory.Key.name(DacTableResource.NAME)))
                .isInstanceOf(ModuleFormatException.class).hasMessageContaining("a cycle")
                .hasMessageContaining(String.format("at 0x%x", BASE + RSRC + ROOT + 16));
        // the language level pointing back at the name level
        SegmentMemory back = image(b -> entry(b, RCDATA_NAMES, 1, DIR | TABLE_NAME, DIR | RCDATA_NAMES));
        assertThatThrownBy(() -> DacTableResource.inMemory(back, BASE)).isInstanceOf(ModuleFormatException.class).hasMessageContaining("a cycle");
    }

    @Test
    void aTreeDeeperThanThreeLevelsIsRefused() {
        // the language entry points at a directory instead of a data entry
        SegmentMemory memory = image(b -> entry(b, TABLE_LANGUAGES, 0, 0, DIR | OTHER_LANGUAGES));
        assertThatThrownBy(() -> DacTableResource.inMemory(memory, BASE)).isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining("three levels").hasMessageContaining(String.format("at 0x%x", BASE + RSRC + TABLE_LANGUAGES + 16));
        // and a type entry pointing at data where the name level belongs
        SegmentMemory shallow = image(b -> entry(b, ROOT, 0, PeResourceDirectory.RT_RCDATA, TABLE_DATA));
        assertThatThrownBy(() -> DacTableResource.inMemory(shallow, BASE)).isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining("points at a data entry");
    }

    @Test
    void aHugeEntryCountIsRefusedWithItsAddress() {
        SegmentMemory memory = image(b -> directory(b, ROOT, 0x8000, 0x8000));
        assertThatThrownBy(() -> DacTableResource.inMemory(memory, BASE)).isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining("32768 named and 32768 id entries: more than 4096")
                .hasMessageContaining(String.format("at 0x%x", BASE + RSRC + 12));
        // fewer, but more than the directory's bytes hold
        SegmentMemory past = image(b -> directory(b, ROOT, 0, 100));
        assertThatThrownBy(() -> DacTableResource.inMemory(past, BASE)).isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining("outside the resource directory");
    }

    @Test
    void dataOutsideTheImageAndAShortTableAreRefused() {
        SegmentMemory outside = image(b -> b.putInt(RSRC + TABLE_DATA, SIZE - 8));
        assertThatThrownBy(() -> DacTableResource.inMemory(outside, BASE)).isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining("outside the image");
        SegmentMemory shortTable = image(b -> b.putInt(TABLE, 300));
        assertThatThrownBy(() -> DacTableResource.inMemory(shortTable, BASE)).isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining("300 globals and 1 vtables");
    }
}
