package io.clrheap.walker.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.memory.MissingMemoryException;
import io.clrheap.memory.SegmentMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * PE exports read from memory at an image base. The images are built here, from the PE Format specification's
 * tables: DOS header, PE signature, COFF header, PE32+ optional header with the export data directory, and an
 * export directory with its address, name pointer and ordinal tables.
 */
class PeExportsTest {

    private static final long BASE = 0x7ffa_2000_0000L;
    private static final int SIZE = 0x4000;
    private static final int NT = 0x80;
    private static final int OPTIONAL = NT + 24;
    private static final int EXPORTS = 0x1000;

    /** An image exporting names (sorted) at RVAs 0x2000 + 0x10 × i; {@code patch} alters it afterwards. */
    private static SegmentMemory image(List<String> names, Consumer<ByteBuffer> patch) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(0, (short) 0x5a4d).putInt(0x3c, NT);
        b.put(NT, new byte[] {'P', 'E', 0, 0}).putShort(NT + 4, (short) 0x8664).putInt(NT + 8, 0x5eed).putShort(NT + 20, (short) 240);
        b.putShort(OPTIONAL, (short) 0x20b).putLong(OPTIONAL + 24, BASE).putInt(OPTIONAL + 56, SIZE).putInt(OPTIONAL + 108, 16);
        int n = names.size();
        int functions = EXPORTS + 40;
        int namePointers = functions + 4 * n;
        int ordinals = namePointers + 4 * n;
        int strings = ordinals + 2 * n;
        b.putInt(EXPORTS + 20, n).putInt(EXPORTS + 24, n).putInt(EXPORTS + 28, functions).putInt(EXPORTS + 32, namePointers)
                .putInt(EXPORTS + 36, ordinals);
        int at = strings;
        for (int i = 0; i < n; i++) {
            b.putInt(functions + 4 * i, 0x2000 + 0x10 * i);
            b.putInt(namePointers + 4 * i, at);
            b.putShort(ordinals + 2 * i, (short) i);
            byte[] name = names.get(i).getBytes(StandardCharsets.US_ASCII);
            b.put(at, name);
            at += name.length + 1;
        }
        b.putInt(OPTIONAL + 112, EXPORTS).putInt(OPTIONAL + 116, at - EXPORTS);
        patch.accept(b);
        SegmentMemory memory = SegmentMemory.allocate(BASE, SIZE, "test.dmp");
        memory.write(BASE, b.array(), 0, SIZE);
        return memory;
    }

    private static final List<String> RUNTIME = List.of("DotNetRuntimeContractDescriptor", "DotNetRuntimeInfo", "g_dacTable");

    @Test
    void findsEachExportAtBasePlusItsRva() throws Exception {
        PeExports exports = PeExports.inMemory(image(RUNTIME, b -> { }), BASE);
        assertThat(exports.lookup("DotNetRuntimeContractDescriptor")).hasValue(BASE + 0x2000);
        assertThat(exports.lookup("DotNetRuntimeInfo")).hasValue(BASE + 0x2010);
        assertThat(exports.lookup("g_dacTable")).hasValue(BASE + 0x2020);
        assertThat(exports.lookup("g_dacTabl")).isEmpty();
        assertThat(exports.lookup("g_dacTableX")).isEmpty();
        assertThat(exports.lookup("")).isEmpty();
        assertThat(exports.sizeOfImage()).isEqualTo(SIZE);
        assertThat(exports.timeDateStamp()).isEqualTo(0x5eed);
        assertThat(exports.nameCount()).isEqualTo(3);
    }

    @Test
    void followsTheOrdinalTableNotTheNamePosition() throws Exception {
        // name 0 is function 2 and name 2 is function 0
        SegmentMemory memory = image(RUNTIME, b -> b.putShort(EXPORTS + 40 + 4 * 3 + 4 * 3, (short) 2).putShort(EXPORTS + 40 + 24 + 4, (short) 0));
        PeExports exports = PeExports.inMemory(memory, BASE);
        assertThat(exports.lookup("DotNetRuntimeContractDescriptor")).hasValue(BASE + 0x2020);
        assertThat(exports.lookup("g_dacTable")).hasValue(BASE + 0x2000);
    }

    @Test
    void aForwarderIsNotAnAddressInTheImage() throws Exception {
        // function 2 points into the export directory: a forwarder string
        PeExports exports = PeExports.inMemory(image(RUNTIME, b -> b.putInt(EXPORTS + 40 + 8, EXPORTS + 0x50)), BASE);
        assertThat(exports.lookup("g_dacTable")).isEmpty();
        assertThat(exports.lookup("DotNetRuntimeInfo")).hasValue(BASE + 0x2010);
    }

    @Test
    void anImageWithoutAnExportDirectoryExportsNothing() throws Exception {
        PeExports exports = PeExports.inMemory(image(RUNTIME, b -> b.putInt(OPTIONAL + 112, 0).putInt(OPTIONAL + 116, 0)), BASE);
        assertThat(exports.lookup("g_dacTable")).isEmpty();
        assertThat(exports.nameCount()).isZero();
    }

    @Test
    void refusesAnImageWithoutTheDosSignature() {
        assertThatThrownBy(() -> PeExports.inMemory(image(RUNTIME, b -> b.putShort(0, (short) 0x457f)), BASE))
                .isInstanceOf(ModuleFormatException.class).hasMessageContaining("no DOS header: 0x457f")
                .hasMessageContaining("the PE image at 0x7ffa20000000 in test.dmp").hasMessageContaining("at 0x7ffa20000000");
    }

    @Test
    void refusesAnELfanewOutsideTheHeaders() {
        assertThatThrownBy(() -> PeExports.inMemory(image(RUNTIME, b -> b.putInt(0x3c, 0x7fff_ffff)), BASE))
                .isInstanceOf(ModuleFormatException.class).hasMessageContaining("e_lfanew 0x7fffffff").hasMessageContaining("at 0x7ffa2000003c");
    }

    @Test
    void refusesAnImageWithoutThePeSignatureAnotherMachineOrPe32() {
        assertThatThrownBy(() -> PeExports.inMemory(image(RUNTIME, b -> b.put(NT, (byte) 'N')), BASE))
                .isInstanceOf(ModuleFormatException.class).hasMessageContaining("no PE signature");
        assertThatThrownBy(() -> PeExports.inMemory(image(RUNTIME, b -> b.putShort(NT + 4, (short) 0xaa64)), BASE))
                .isInstanceOf(ModuleFormatException.class).hasMessageContaining("machine 0xaa64 is not AMD64");
        assertThatThrownBy(() -> PeExports.inMemory(image(RUNTIME, b -> b.putShort(OPTIONAL, (short) 0x10b)), BASE))
                .isInstanceOf(ModuleFormatException.class).hasMessageContaining("optional header magic 0x10b is not PE32+");
    }

    @Test
    void refusesAnExportDirectoryOutsideTheImage() {
        assertThatThrownBy(() -> PeExports.inMemory(image(RUNTIME, b -> b.putInt(OPTIONAL + 112, SIZE - 8)), BASE))
                .isInstanceOf(ModuleFormatException.class).hasMessageContaining("the export directory (0x28 bytes at RVA 0x3ff8) is outside the image");
        assertThatThrownBy(() -> PeExports.inMemory(image(RUNTIME, b -> b.putInt(EXPORTS + 32, -16)), BASE))
                .isInstanceOf(ModuleFormatException.class).hasMessageContaining("the export name pointer table");
    }

    @Test
    void refusesExportCountsAboveTheOrdinalRange() {
        assertThatThrownBy(() -> PeExports.inMemory(image(RUNTIME, b -> b.putInt(EXPORTS + 24, 0x7fff_ffff)), BASE))
                .isInstanceOf(ModuleFormatException.class).hasMessageContaining("2147483647 names exported: more than 65536");
    }

    @Test
    void refusesAnOrdinalPastTheAddressTable() throws Exception {
        PeExports exports = PeExports.inMemory(image(RUNTIME, b -> b.putShort(EXPORTS + 40 + 24 + 4, (short) 9)), BASE);
        assertThatThrownBy(() -> exports.lookup("g_dacTable")).isInstanceOf(ModuleFormatException.class)
                .hasMessageContaining("the ordinal of g_dacTable is 9, past the 3 entries of the export address table");
    }

    @Test
    void refusesANamePointerOutsideTheImage() throws Exception {
        PeExports exports = PeExports.inMemory(image(RUNTIME, b -> b.putInt(EXPORTS + 40 + 12, SIZE + 0x10)), BASE);
        assertThatThrownBy(() -> exports.lookup("zzz")).isInstanceOf(ModuleFormatException.class).hasMessageContaining("export name 0");
    }

    @Test
    void missingBytesAreTheMemorysMissingMemory() {
        SegmentMemory headersOnly = SegmentMemory.allocate(BASE, 0x400, "trimmed.dmp");
        byte[] full = new byte[0x400];
        image(RUNTIME, b -> { }).read(BASE, full, 0, full.length);
        headersOnly.write(BASE, full, 0, full.length);
        assertThatThrownBy(() -> PeExports.inMemory(headersOnly, BASE)).isInstanceOf(MissingMemoryException.class)
                .hasMessageContaining("0x7ffa20001014");
        assertThatThrownBy(() -> PeExports.inMemory(headersOnly, BASE + 0x10000)).isInstanceOf(MissingMemoryException.class);
    }
}
