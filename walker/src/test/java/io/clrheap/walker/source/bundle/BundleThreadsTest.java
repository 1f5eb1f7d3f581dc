package io.clrheap.walker.source.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.Register;
import io.clrheap.walker.source.RegisterSet;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bundle's threads: the manifest's optional {@code threads} read as the walker's OS threads (a bundle without them, as
 * written before they were, has none), and a thread that is not what the format says refused with a message naming the
 * key.
 */
class BundleThreadsTest {

    @TempDir
    Path dir;

    /** A thread with every register: rax = 1, rbx = 2, ... rip = 17; rsp is 8. */
    private static String thread(long osId, String extra) {
        StringBuilder registers = new StringBuilder();
        for (Register r : Register.values()) {
            registers.append(registers.isEmpty() ? "" : ", ").append(String.format("\"%s\": \"0x%x\"", r.id(), r.ordinal() + 1));
        }
        return String.format("{\"osId\": %d, \"stackBase\": \"0x7f3500020000\", \"registers\": {%s%s}}", osId, registers, extra);
    }

    private static TestBundle withThreads(String threads) {
        return TestBundle.typical().patchManifest(s -> s.replace("\n  \"memory\": [", "\n  \"threads\": [" + threads + "],\n  \"memory\": ["));
    }

    private Bundle open(TestBundle bundle) throws Exception {
        return Bundle.open(Files.write(dir.resolve("t.clrheap.tar.xz"), bundle.build()));
    }

    @Test
    void theManifestsThreadsAreTheBundlesOsThreads() throws Exception {
        try (Bundle bundle = open(withThreads(thread(4242, "") + ", " + thread(4243, "")))) {
            RegisterSet.Builder registers = new RegisterSet.Builder();
            for (Register r : Register.values()) {
                registers.set(r, r.ordinal() + 1);
            }
            assertThat(bundle.osThreads()).containsExactly(new OsThread(4242, registers.build(), 0x7f3500020000L),
                    new OsThread(4243, registers.build(), 0x7f3500020000L));
            assertThat(bundle.osThreads().getFirst().registers().rsp()).isEqualTo(8);
        }
    }

    @Test
    void aBundleWrittenBeforeThreadsWereHasNone() throws Exception {
        try (Bundle bundle = open(TestBundle.typical())) {
            assertThat(bundle.osThreads()).isEmpty();
        }
    }

    @Test
    void aThreadThatIsNotWhatTheFormatSaysIsRefusedNamingTheKey() throws Exception {
        assertThatThrownBy(() -> open(withThreads(thread(1, "").replace("\"rbx\": \"0x2\"", "\"rbx\": \"2\""))).close())
                .isInstanceOf(DumpFormatException.class).hasMessageContaining("manifest.json: threads[0].registers.rbx: '2' is not 0x");
        assertThatThrownBy(() -> open(withThreads(thread(1, ", \"cr3\": \"0x0\""))).close())
                .isInstanceOf(DumpFormatException.class).hasMessageContaining("threads[0].registers: 18 registers");
        assertThatThrownBy(() -> open(withThreads(thread(1, "") + ", " + thread(1, ""))).close())
                .isInstanceOf(DumpFormatException.class).hasMessageContaining("threads[1].osId: 1 is another thread's too");
        assertThatThrownBy(() -> open(withThreads(thread(1, "").replace("\"stackBase\": \"0x7f3500020000\", ", ""))).close())
                .isInstanceOf(DumpFormatException.class).hasMessageContaining("threads[0].stackBase: missing or not a string");
    }

    @Test
    void moreThreadsThanTheCapAreRefusedBeforeAnyIsRead() throws Exception {
        String many = String.join(",", java.util.Collections.nCopies(ManifestReader.MAX_THREADS + 1, "0"));
        assertThatThrownBy(() -> open(withThreads(many)).close())
                .isInstanceOf(DumpFormatException.class).hasMessageContaining("threads: 65537 items; the cap is 65536 threads");
    }
}
