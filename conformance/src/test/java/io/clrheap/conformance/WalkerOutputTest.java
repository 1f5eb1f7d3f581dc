package io.clrheap.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whatever a walker prints is read: not UTF-8, numbers out of range, lines too long are problems or notes naming the line. */
class WalkerOutputTest {

    @TempDir
    Path dir;

    private Path file(String name, byte[] bytes) throws Exception {
        return Files.write(dir.resolve(name), bytes);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void bytesThatAreNotUtf8AreReadAsAReplacementAndNotedWithTheirLineAndByte() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(bytes("Statistics:\n7f3900000df8     1        60 Caf"));
        out.write(0xe9); // "Café" in Latin-1
        out.writeBytes(bytes("\nTotal 1 objects, 60 bytes\n"));
        WalkerOutput.Stat stat = WalkerOutput.parseStat(file("latin1.txt", out.toByteArray()));
        assertThat(stat.problems()).isEmpty();
        assertThat(stat.rows().get(0x7f3900000df8L)).isEqualTo(new WalkerOutput.StatRow(1, 60, "Caf\uFFFD"));
        assertThat(stat.totalObjects()).isEqualTo(1);
        assertThat(stat.notes()).singleElement().asString().contains("line 2, byte 33", "offset 44 of the output", "0xe9 is not UTF-8", "U+FFFD");
    }

    @Test
    void numbersAboveTheLongRangeAreProblemsNamingTheLine() throws Exception {
        WalkerOutput.Stat stat = WalkerOutput.parseStat(file("big.txt", bytes("""
                7f3900000df8 18446744073709551616 60 Big
                7f3900000ce0 1 64 Fine
                Total 9,223,372,036,854,775,808 objects, 124 bytes
                """)));
        assertThat(stat.rows()).containsOnlyKeys(0x7f3900000ce0L);
        assertThat(stat.problems()).containsExactly(
                "line 1: the count 18446744073709551616 is not below 2^63 (9,223,372,036,854,775,808): '7f3900000df8 18446744073709551616 60 Big'",
                "line 3: the Total line: the object count 9,223,372,036,854,775,808 is not below 2^63 (9,223,372,036,854,775,808): "
                        + "'Total 9,223,372,036,854,775,808 objects, 124 bytes'");

        WalkerOutput.Listing listing = WalkerOutput.readObjects(file("objects.txt", bytes("""
                address mt size
                0x10000000000000000 0x7f3900000df8 24
                0x7e2000000028 0x7f3900000828 99999999999999999999
                0x7e2000000100 0x7f3900000828 24
                0x7e20000000d0 0x7f3900000600 88 System.String
                0xzz nonsense
                """)));
        assertThat(listing.objects()).containsExactly(new WalkerOutput.Listed(0x7e20000000d0L, 0x7f3900000600L, 88),
                new WalkerOutput.Listed(0x7e2000000100L, 0x7f3900000828L, 24));
        assertThat(listing.problems()).containsExactly(
                "line 2: the address 0x10000000000000000 does not fit in 64 bits: '0x10000000000000000 0x7f3900000df8 24'",
                "line 3: the size 99999999999999999999 is not below 2^63 (9,223,372,036,854,775,808): '0x7e2000000028 0x7f3900000828 99999999999999999999'");
    }

    @Test
    void aLineLongerThanOneMibIsAProblemAndTheLinesAfterItAreRead() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(bytes("0x1000 0x2000 24\n"));
        out.writeBytes(new byte[3 << 20]);
        out.writeBytes(bytes("\n0x1018 0x2000 32\n"));
        out.writeBytes(bytes("x".repeat(OutputLines.MAX_LINE_BYTES + 1)));
        WalkerOutput.Listing listing = WalkerOutput.readObjects(file("long.txt", out.toByteArray()));
        assertThat(listing.objects()).containsExactly(new WalkerOutput.Listed(0x1000, 0x2000, 24), new WalkerOutput.Listed(0x1018, 0x2000, 32));
        assertThat(listing.problems()).containsExactly(
                "line 2 is longer than the 1048576 bytes (1 MiB) a line may have: 3,145,728 bytes; not read",
                "line 4 is longer than the 1048576 bytes (1 MiB) a line may have: 1,048,577 bytes, with no newline at its end; not read");
        // a line of exactly 1 MiB is read
        WalkerOutput.Listing max = WalkerOutput.readObjects(file("max.txt", bytes("0x1000 0x2000 24 " + "x".repeat(OutputLines.MAX_LINE_BYTES - 17))));
        assertThat(max.problems()).isEmpty();
        assertThat(max.objects()).hasSize(1);
    }

    @Test
    void aBrokenAnswerKeyIsAnAnswerKeyExceptionNamingTheFileAndLine() throws Exception {
        Path answer = Files.createDirectory(dir.resolve("x.answer"));
        Files.writeString(answer.resolve("objects.tsv"), "address\tmt\tsize\n0x10\t0x20\t24\n0x40\t0x20\tlots\n");
        assertThatThrownBy(() -> Comparison.objects(java.util.List.of(), answer)).isInstanceOf(AnswerKeyException.class)
                .hasMessage(answer.resolve("objects.tsv") + ": line 3: the size 'lots' is not a decimal number: '0x40\t0x20\tlots'");
        Files.writeString(answer.resolve("objects.tsv"), "address\tmt\tsize\n0x40\t0x20\t24\n0x10\t0x20\t24\n");
        assertThatThrownBy(() -> Comparison.objects(java.util.List.of(), answer)).isInstanceOf(AnswerKeyException.class)
                .hasMessageContaining("objects.tsv: line 3: 0x10 is not above the address of the line before (0x40)");
        Files.write(answer.resolve("objects.tsv"), new byte[] {(byte) 0xff, 0, 1, 2, '\n'});
        assertThatThrownBy(() -> Comparison.objects(java.util.List.of(), answer)).isInstanceOf(AnswerKeyException.class)
                .hasMessageContaining("objects.tsv: line 1: not the header");

        WalkerOutput.Stat empty = new WalkerOutput.Stat(java.util.Map.of(), 0, 0);
        assertThatThrownBy(() -> Comparison.stat(empty, answer)).isInstanceOf(AnswerKeyException.class)
                .hasMessage(answer.resolve("dumpheap-stat.txt") + ": cannot be read: no such file");
        Files.writeString(answer.resolve("dumpheap-stat.txt"), "Statistics:\n7f3900000df8 1 60 Pt[]\nTotal 1x objects\n");
        assertThatThrownBy(() -> Comparison.stat(empty, answer)).isInstanceOf(AnswerKeyException.class)
                .hasMessage(answer.resolve("dumpheap-stat.txt") + ": line 3: starts like the 'Total N objects, M bytes' line but is not one: 'Total 1x objects'");
        Files.write(answer.resolve("dumpheap-stat.txt"), new byte[] {'a', (byte) 0x80, '\n'});
        assertThatThrownBy(() -> Comparison.stat(empty, answer)).isInstanceOf(AnswerKeyException.class)
                .hasMessageContaining("dumpheap-stat.txt: line 1, byte 2");
    }
}
