package io.clrheap.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A walker's references and live set, read whatever order and noise they come in, and compared with a small answer
 * key written here: each difference names the object, its type from objects.tsv and where the lists part.
 */
class GraphOutputTest {

    @TempDir
    Path dir;

    private Path file(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    /** An answer key of three objects: A holds references to B (offset 8) and C (offset 24), C to itself (offset 8); A and C live. */
    private Path key(long a, long b, long c) throws Exception {
        Path answer = Files.createDirectories(dir.resolve("key.answer"));
        Files.writeString(answer.resolve("objects.tsv"), String.format("""
                address\tmt\tsize\tgeneration\theap\tkind\ttype
                0x%x\t0x10\t40\tgen0\t0\tobject\tPair
                0x%x\t0x20\t24\tgen0\t0\tobject\tLeaf
                0x%x\t0x30\t24\tgen1\t0\tobject\tSelf
                """, a, b, c));
        Files.writeString(answer.resolve(GraphComparison.REFERENCES), String.format("from\toffset\tto\n0x%x\t8\t0x%x\n0x%x\t24\t0x%x\n0x%x\t8\t0x%x\n",
                a, b, a, c, c, c));
        Files.writeString(answer.resolve(GraphComparison.LIVE), String.format("address\n0x%x\n0x%x\n", a, c));
        Files.writeString(answer.resolve("roots.tsv"), String.format("kind\troot\tobject\tflags\tthread\nstrong\t0x500\t0x%x\t-\t-\n"
                + "weak-short\t0x508\t0x%x\tweak\t-\nstack\t0x7f3500001ff0\t0x%x\tinterior\t4242\nstack\trbx\t0x%x\t-\t4242\n", a, b, c, a));
        return answer;
    }

    @Test
    void referencesInAnyOrderWithCommentsAreReadSortedAndARepeatedObjectIsAProblem() throws Exception {
        ReferenceListing r = ReferenceListing.read(file("refs.txt", "# refs\n\n0x30: 0x30\nbanner\n0x10: 0x20 0x30\n0x30: 0x99\n0x40:\n0x50 0x60\n0x60: 0xzz\n"));
        assertThat(r.size()).isEqualTo(2);
        assertThat(r.source(0)).isEqualTo(0x10);
        assertThat(r.targets(0)).containsExactly(0x20, 0x30);
        assertThat(r.source(1)).isEqualTo(0x30);
        assertThat(r.targets(1)).containsExactly(0x30);
        assertThat(String.join("\n", r.problems())).contains("line 8: starts like an object's references", "line 9: the target '0xzz'",
                "0x30 is listed on more than one line; its first line is compared");
    }

    @Test
    void liveAddressesAreTheFirstColumnInAnyOrderOnce() throws Exception {
        LiveListing l = LiveListing.read(file("live.txt", "address\tmt\tsize\ttype\n0x30\t0x1\t24\tX\n# c\n0x10\n0x30\n0xq\n"));
        assertThat(l.addresses()).containsExactly(0x10, 0x30);
        assertThat(l.problems()).singleElement().asString().contains("line 6", "'0xq' is not a hexadecimal number");
    }

    @Test
    void referencesThatDifferNameTheObjectItsTypeAndTheFieldWhereTheListsPart() throws Exception {
        Path answer = key(0x1000, 0x2000, 0x3000);
        Comparison.Result same = GraphComparison.references(ReferenceListing.read(file("same.txt", "0x1000: 0x2000 0x3000\n0x3000: 0x3000\n")), answer);
        assertThat(same.passed()).as(same.first().toString()).isTrue();

        Comparison.Result r = GraphComparison.references(ReferenceListing.read(file("wrong.txt", "0x1000: 0x2000\n0x2000: 0x1000\n")), answer);
        assertThat(r.differences()).isEqualTo(3);
        assertThat(r.first().get(0)).isEqualTo("wrong references: 0x1000 (Pair, 40 bytes, heap 0 gen0): 2 expected, 1 reported; the first difference is "
                + "reference 2, the field at offset 24: 0x3000 expected, none reported; expected [0x2000@8 0x3000@24]; reported [0x2000]");
        assertThat(r.first().get(1)).startsWith("extra references: 0x2000 (Leaf, 24 bytes, heap 0 gen0) reported with 1 reference; it holds none");
        assertThat(r.first().get(2)).startsWith("missing references: 0x3000 (Self, 24 bytes, heap 0 gen1) holds 1 reference, none reported: expected [0x3000@8]");
    }

    @Test
    void aLiveSetThatDiffersNamesTheObjectsAndTheRootsPointingAtThem() throws Exception {
        Path answer = key(0x1000, 0x2000, 0x3000);
        Comparison.Result r = GraphComparison.live(LiveListing.read(file("live.txt", "0x2000\n0x3000\n0x4000\n")), answer);
        assertThat(r.differences()).isEqualTo(3);
        assertThat(r.kinds()).extracting(DifferencesOfKind::kind).as("the more frequent kind first")
                .containsExactly(DifferenceKind.EXTRA_LIVE_OBJECT, DifferenceKind.MISSING_LIVE_OBJECT);
        List<String> extra = r.kinds().get(0).examples();
        assertThat(r.kinds().get(1).examples()).containsExactly("missing live object: 0x1000 (Pair, 40 bytes, heap 0 gen0) is reachable from the roots "
                + "that keep objects alive; not reported; roots.tsv: the strong root 0x500 points at it, the stack root rbx of thread 4242 points at it");
        assertThat(extra.get(0)).isEqualTo("extra live object: 0x2000 (Leaf, 24 bytes, heap 0 gen0) reported live; no root that keeps objects alive reaches "
                + "it; roots.tsv: the weak-short root 0x508 points at it");
        assertThat(extra.get(1)).startsWith("extra live object: 0x4000 (no object starts there)");
    }

    @Test
    void rootsAreComparedAsSetsOfCanonicalRowsIgnoringTheConservativeFlag() throws Exception {
        Path answer = key(0x1000, 0x2000, 0x3000);
        // another order, spaces, upper-case hex, a 'conservative' flag, a header and a comment: the same rows
        Comparison.Result same = GraphComparison.roots(RootListing.read(file("same.txt", "kind root object flags thread\n# mine\n"
                + "stack rbx 0x1000 conservative 4242\nstack 0x7F3500001FF0 0x3000 conservative,interior 4242\nweak-short\t0x508\t0x2000\tweak\t-\n"
                + "strong 0x500 0x1000 - -\n")), answer);
        assertThat(same.passed()).as(same.first().toString()).isTrue();

        Comparison.Result r = GraphComparison.roots(RootListing.read(file("wrong.txt", "strong 0x500 0x1000 - -\nweak-short 0x508 0x2000 weak -\n"
                + "stack 0x7f3500001ff0 0x3000 - 4242\nstack 0x7f3500001f00 0x2000 - 4242\nstack rsp 0x1000 - 4242\n")), answer);
        assertThat(r.differences()).isEqualTo(5);
        assertThat(r.first().getFirst()).isEqualTo("line 5: the root 'rsp' is neither a 0x hex address nor a register (rax ... r15 but rsp): "
                + "'stack rsp 0x1000 - 4242'");
        assertThat(r.first().subList(1, 5)).containsExactly(
                "missing root: stack 0x7f3500001ff0 of 0x3000 (Self, 24 bytes, heap 0 gen1), flags interior, thread 4242: in roots.tsv, not reported",
                "missing root: stack rbx of 0x1000 (Pair, 40 bytes, heap 0 gen0), flags -, thread 4242: in roots.tsv, not reported",
                "extra root: stack 0x7f3500001ff0 of 0x3000 (Self, 24 bytes, heap 0 gen1), flags -, thread 4242: reported; roots.tsv has no such row",
                "extra root: stack 0x7f3500001f00 of 0x2000 (Leaf, 24 bytes, heap 0 gen0), flags -, thread 4242: reported; roots.tsv has no such row");
    }

    @Test
    void aFrozenObjectTheKeyListsLiveIsMissingWhenTheWalkerLeavesItOut() throws Exception {
        Path answer = key(0x1000, 0x2000, 0x3000);
        Files.writeString(answer.resolve("objects.tsv"), "0x7f0000000008\t0x40\t24\tfrozen\t0\tobject\tSystem.String\n", java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(answer.resolve(GraphComparison.LIVE), "address\n0x1000\n0x3000\n0x7f0000000008\n"); // frozen: live
        assertThat(GraphComparison.live(LiveListing.read(file("with.txt", "0x1000\n0x3000\n0x7f0000000008\n")), answer).passed()).isTrue();
        Comparison.Result without = GraphComparison.live(LiveListing.read(file("without.txt", "0x1000\n0x3000\n")), answer);
        assertThat(without.passed()).isFalse();
        assertThat(without.first()).anyMatch(l -> l.startsWith("missing live object: 0x7f0000000008"));
    }

    @Test
    void aKeyOutOfOrderIsTheKeysFaultNamingTheLine() throws Exception {
        Path answer = key(0x1000, 0x2000, 0x3000);
        Files.writeString(answer.resolve(GraphComparison.REFERENCES), "from\toffset\tto\n0x3000\t8\t0x3000\n0x1000\t8\t0x2000\n");
        assertThatThrownBy(() -> GraphComparison.references(ReferenceListing.read(file("r.txt", "")), answer)).isInstanceOf(AnswerKeyException.class)
                .hasMessageContaining("line 3: 0x1000 offset 8 is not after 0x3000 offset 8");
        Files.writeString(answer.resolve(GraphComparison.LIVE), "addresses\n0x1000\n");
        assertThatThrownBy(() -> GraphComparison.live(LiveListing.read(file("l.txt", "")), answer)).isInstanceOf(AnswerKeyException.class)
                .hasMessageContaining("line 1: not the header 'address'");
    }
}
