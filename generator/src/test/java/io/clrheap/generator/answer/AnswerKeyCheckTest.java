package io.clrheap.generator.answer;

import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.elf.ElfCoreWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The answer-key check finds every kind of difference between a walk and the key. */
class AnswerKeyCheckTest {

    @TempDir
    Path dir;

    private AnswerKeyCheck.Result checkAgainstTamperedKey(UnaryOperator<List<String>> tamper) throws Exception {
        EmulatedRuntime process = new RuntimeBuilder().build(Scenarios.named("default").orElseThrow());
        Path core = dir.resolve("default.core");
        ElfCoreWriter.write(process, core);
        Path answer = dir.resolve("default.answer");
        AnswerKeyWriter.write(process, answer);
        Path objects = answer.resolve("objects.tsv");
        Files.write(objects, tamper.apply(new ArrayList<>(Files.readAllLines(objects))));
        try (DumpSession dump = Dumps.open(core)) {
            return AnswerKeyCheck.check(dump, answer);
        }
    }

    @Test
    void anUntouchedKeyAgrees() throws Exception {
        AnswerKeyCheck.Result r = checkAgainstTamperedKey(lines -> lines);
        assertThat(r.agrees()).isTrue();
        assertThat(r.first()).isEmpty();
    }

    @Test
    void aRowTheWalkerDoesNotFindIsMissingAndAnObjectTheKeyLacksIsExtra() throws Exception {
        AnswerKeyCheck.Result r = checkAgainstTamperedKey(lines -> {
            String[] t = lines.get(10).split("\\t");
            // the key now lists an object 8 bytes further on: the walker's object there is extra, the key's is missing
            t[0] = "0x" + Long.toHexString(Long.parseUnsignedLong(t[0].substring(2), 16) + 8);
            lines.set(10, String.join("\t", t));
            return lines;
        });
        assertThat(r.agrees()).isFalse();
        assertThat(r.differences()).isEqualTo(2);
        assertThat(r.first()).anyMatch(d -> d.startsWith("extra: ")).anyMatch(d -> d.startsWith("missing: "));
    }

    @Test
    void anotherSizeIsWrong() throws Exception {
        AnswerKeyCheck.Result r = checkAgainstTamperedKey(lines -> {
            String[] t = lines.get(5).split("\\t");
            t[2] = String.valueOf(Long.parseLong(t[2]) + 1);
            lines.set(5, String.join("\t", t));
            return lines;
        });
        assertThat(r.differences()).isEqualTo(1);
        assertThat(r.first()).singleElement().asString().startsWith("wrong: ");
    }
}
