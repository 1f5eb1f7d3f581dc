package io.clrheap.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Comparison counts differences by kind: a walker with two bugs is told both, each with its count, where in the heap
 * they are and its first lines; objects are named with their type, heap, generation and region from the key.
 */
class DifferenceKindsTest {

    /** Twelve small objects of 25 to 36 bytes, 40 bytes apart, in a gen0 region of heap 0. */
    private static final long GEN0 = 0x10000;
    private static final int SMALL = 12;
    /** Two large objects in an LOH region of heap 1. */
    private static final long LOH = 0x80000;
    private static final int LARGE = 2;
    private static final int LARGE_SIZE = 85_001;

    @TempDir
    Path answer;

    private void key() throws Exception {
        StringBuilder objects = new StringBuilder(KeyObjects.HEADER + "\n");
        for (int i = 0; i < SMALL; i++) {
            objects.append(String.format("0x%x\t0x100\t%d\tgen0\t0\tobject\tSystem.String\n", GEN0 + 8 + 40L * i, 25 + i));
        }
        for (int i = 0; i < LARGE; i++) {
            objects.append(String.format("0x%x\t0x200\t%d\tloh\t1\tobject\tSystem.Byte[]\n", LOH + 8 + 0x20000L * i, LARGE_SIZE));
        }
        Files.writeString(answer.resolve("objects.tsv"), objects);
        Files.writeString(answer.resolve(KeyRegions.FILE), KeyRegions.HEADER + "\n"
                + String.format("0\tgen0\t0x9000\t0x%x\t0x%x\t0x%x\t0x%x\t0x0\n", GEN0, GEN0 + 8, GEN0 + 8 + 40L * SMALL, GEN0 + 0x10000)
                + String.format("1\tloh\t0x9100\t0x%x\t0x%x\t0x%x\t0x%x\t0x8\n", LOH, LOH + 8, LOH + 0x40000, LOH + 0x100000));
    }

    /** The key's objects as a walker that rounds sizes up to 8 and skips the LOH reports them. */
    private static List<WalkerOutput.Listed> roundedWithoutTheLoh() {
        List<WalkerOutput.Listed> found = new ArrayList<>();
        for (int i = 0; i < SMALL; i++) {
            found.add(new WalkerOutput.Listed(GEN0 + 8 + 40L * i, 0x100, (25 + i + 7) & ~7));
        }
        return found;
    }

    private static long unaligned() {
        long n = 0;
        for (int i = 0; i < SMALL; i++) {
            n += (25 + i) % 8 == 0 ? 0 : 1;
        }
        return n;
    }

    @Test
    void twoBugsAreTwoKindsEachCountedAndShown() throws Exception {
        key();
        Comparison.Result r = Comparison.objects(roundedWithoutTheLoh(), answer);
        assertThat(r.differences()).isEqualTo(unaligned() + LARGE);
        assertThat(r.kinds()).extracting(DifferencesOfKind::kind).containsExactly(DifferenceKind.WRONG_SIZE, DifferenceKind.MISSING_OBJECT);
        assertThat(r.kinds()).extracting(DifferencesOfKind::count).containsExactly(unaligned(), (long) LARGE);
        assertThat(r.summary()).isEqualTo(String.format("%d wrong size (all gen0), %d missing object (all loh)", unaligned(), LARGE));
    }

    @Test
    void eachKindKeepsItsFirstFiveAndSaysSo() throws Exception {
        key();
        DifferencesOfKind wrongSize = Comparison.objects(roundedWithoutTheLoh(), answer).kinds().getFirst();
        assertThat(unaligned()).as("more than are shown").isGreaterThan(Differences.SHOWN_PER_KIND);
        assertThat(wrongSize.examples()).hasSize(Differences.SHOWN_PER_KIND).allMatch(l -> l.startsWith("wrong size: 0x"));
        assertThat(wrongSize.heading()).endsWith(", the first " + Differences.SHOWN_PER_KIND + ":");
    }

    @Test
    void aKindAloneKeepsItsFirstTen() throws Exception {
        key();
        List<WalkerOutput.Listed> rounded = new ArrayList<>(roundedWithoutTheLoh());
        for (int i = 0; i < LARGE; i++) {
            rounded.add(new WalkerOutput.Listed(LOH + 8 + 0x20000L * i, 0x200, (LARGE_SIZE + 7) & ~7));
        }
        Comparison.Result r = Comparison.objects(rounded, answer);
        assertThat(r.kinds()).singleElement().satisfies(k -> {
            assertThat(k.count()).isEqualTo(unaligned() + LARGE);
            assertThat(k.examples()).hasSize(Differences.SHOWN_ALONE);
        });
    }

    @Test
    void aMissingObjectIsNamedWithItsTypeHeapGenerationAndRegion() throws Exception {
        key();
        DifferencesOfKind missing = Comparison.objects(roundedWithoutTheLoh(), answer).kinds().get(1);
        assertThat(missing.examples().getFirst()).isEqualTo(String.format("missing object: 0x%x (System.Byte[], %,d bytes, heap 1 loh region [0x%x, 0x%x)) "
                + "with MethodTable 0x200 was not reported", LOH + 8, LARGE_SIZE, LOH, LOH + 0x40000));
    }

    @Test
    void anExtraObjectInsideAnotherNamesTheObjectItLiesIn() throws Exception {
        key();
        List<WalkerOutput.Listed> found = new ArrayList<>();
        for (int i = 0; i < SMALL; i++) {
            found.add(new WalkerOutput.Listed(GEN0 + 8 + 40L * i, 0x100, 25 + i));
        }
        found.add(new WalkerOutput.Listed(LOH + 8, 0x200, LARGE_SIZE));
        found.add(new WalkerOutput.Listed(LOH + 8 + 0x100, 0x100, 24));
        found.add(new WalkerOutput.Listed(LOH + 8 + 0x20000L, 0x200, LARGE_SIZE));
        Comparison.Result r = Comparison.objects(found, answer);
        assertThat(r.first()).containsExactly(String.format("extra object: 0x%x (no object starts there; it lies inside 0x%x, System.Byte[], %,d bytes, "
                + "heap 1 loh region [0x%x, 0x%x)) reported with MethodTable 0x100, 24 bytes", LOH + 8 + 0x100, LOH + 8, LARGE_SIZE, LOH, LOH + 0x40000));
    }

    @Test
    void identicalUnparsableLinesAreOneLineWithTheirCount() throws Exception {
        Path output = answer.resolve("walker.out");
        StringBuilder rows = new StringBuilder("Statistics:\n");
        for (int i = 0; i < 3; i++) {
            rows.append(String.format("0x%x 0x7f3900000100 24\n", 0x7e2000000028L + 24L * i));
        }
        Files.writeString(output, rows);
        WalkerOutput.Stat stat = WalkerOutput.parseStat(output);
        assertThat(stat.problems().lines()).isEqualTo(3);
        assertThat(stat.problems()).singleElement().asString().startsWith("3 lines like line 2: starts like a row 'MT Count TotalSize Class Name' but is not one");
    }

    @Test
    void outputOfAnotherReportIsRecognised() throws Exception {
        Path output = answer.resolve("walker.out");
        Files.writeString(output, "Statistics:\n          MT Count TotalSize Class Name\n7f3900000bb8     2        64 Leaf\nTotal 2 objects, 64 bytes\n");
        assertThat(OutputShape.of(output)).contains(ConformanceRunner.Expect.STAT);
        Files.writeString(output, "address mt size\n0x1000 0x2000 24\n0x1018 0x2000 32\n");
        assertThat(OutputShape.of(output)).contains(ConformanceRunner.Expect.OBJECTS);
        Files.writeString(output, "0x1000: 0x2000 0x3000\n");
        assertThat(OutputShape.of(output)).contains(ConformanceRunner.Expect.REFS);
    }
}
