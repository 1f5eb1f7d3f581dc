package io.clrheap.capture.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The IPC client through a relay process ({@link ProcessEndpoint}), with shell commands in the relay's place that
 * play the runtime themselves: they answer on stdout, fail, stay silent or never read.
 */
class ProcessEndpointTest {

    @TempDir
    Path tmp;

    /** The 20-byte answer header (set 0xff, id 0 = OK) of a message with {@code payload} bytes, as printf octal escapes. */
    private static String okHeader(int payload) {
        StringBuilder s = new StringBuilder("DOTNET_IPC_V1\\000");
        int size = 20 + payload;
        for (int b : new int[] {size & 0xff, size >> 8, 0xff, 0, 0, 0}) {
            s.append(String.format("\\%03o", b));
        }
        return s.toString();
    }

    /** A relay that runs {@code script} under sh, in the test's folder, with only PATH in its environment. */
    private ProcessEndpoint relay(String script) {
        return new ProcessEndpoint(List.of("sh", "-c", script), Map.of("PATH", System.getenv("PATH")), tmp.toFile());
    }

    @Test
    void aCommandIsAnsweredThroughTheRelayAndTheRequestReachesItsStdin() throws IOException {
        // the relay answers OK with HRESULT 0, then keeps what it is sent until its stdin ends (the client closed it)
        ProcessEndpoint relay = relay("printf '" + okHeader(4) + "\\000\\000\\000\\000'; cat > request.bin");
        DiagnosticsClient c = DiagnosticsClient.over(7, relay, Duration.ofSeconds(10));
        assertThat(c.endpoint()).isSameAs(relay);
        assertThat(c.pid()).isEqualTo(7);
        c.generateCoreDump(Path.of("/d/x"), DiagnosticsClient.DUMP_TYPE_FULL, Duration.ofSeconds(10));
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (Files.size(tmp.resolve("request.bin")) < 42 && System.nanoTime() < deadline) {
            sleep(20);
        }
        byte[] request = Files.readAllBytes(tmp.resolve("request.bin"));
        assertThat(request).hasSize(20 + 4 + 10 + 4 + 4);
        assertThat(new String(request, 0, 13, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("DOTNET_IPC_V1");
        assertThat(request[16]).isEqualTo((byte) 1);
        assertThat(request[17]).isEqualTo((byte) 1);
    }

    @Test
    void aTraceStreamIsCopiedUntilTheRelayEndsIt() throws IOException {
        // CollectTracing2's answer (a u64 session id), then 100,000 bytes of "trace", then the relay ends: the server
        // closed the stream
        ProcessEndpoint relay = relay("printf '" + okHeader(8) + "\\052\\000\\000\\000\\000\\000\\000\\000'; head -c 100000 /dev/zero");
        DiagnosticsClient c = DiagnosticsClient.over(7, relay, Duration.ofSeconds(10));
        try (DiagnosticsClient.TraceSession session = c.collectTracing(16, List.of(new DiagnosticsClient.Provider("P", 1, 5, "")))) {
            assertThat(session.id()).isEqualTo(42);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertThat(session.record(out, Duration.ofSeconds(5), Duration.ofSeconds(20))).isEqualTo(100_000);
            assertThat(out.size()).isEqualTo(100_000);
        }
    }

    @Test
    void aRelayThatFailsIsAnErrorWithItsExitCodeAndWhatItSaid() {
        ProcessEndpoint relay = relay("echo 'PipeRelay: CreateFile(\\\\.\\pipe\\dotnet-diagnostic-7) failed: error 2' >&2; exit 3");
        DiagnosticsClient c = DiagnosticsClient.over(7, relay, Duration.ofSeconds(10));
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> c.generateCoreDump(tmp.resolve("x.dmp"), DiagnosticsClient.DUMP_TYPE_FULL, Duration.ofSeconds(10)))
                .isInstanceOf(DiagnosticsException.class).hasMessageContaining("the relay sh -c").hasMessageContaining("exit code 3")
                .hasMessageContaining("failed: error 2");
        assertThat((System.nanoTime() - t0) / 1e9).as("seconds").isLessThan(8);
    }

    @Test
    void aRelayThatFailsWhileAnotherProcessHoldsItsStdoutIsReportedBeforeTheDeadline() {
        // the relay leaves a process behind that keeps its stdout open: its stdout does not end, its exit code tells
        ProcessEndpoint relay = relay("sleep 10 & echo 'no pipe' >&2; exit 3");
        DiagnosticsClient c = DiagnosticsClient.over(7, relay, Duration.ofSeconds(20));
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> c.generateCoreDump(tmp.resolve("x.dmp"), DiagnosticsClient.DUMP_TYPE_FULL, Duration.ofSeconds(20)))
                .isInstanceOf(DiagnosticsException.class).hasMessageContaining("exit code 3").hasMessageContaining("no pipe");
        assertThat((System.nanoTime() - t0) / 1e9).as("seconds").isLessThan(10);
    }

    @Test
    void aSilentRelayTimesOutWithAClearMessage() {
        DiagnosticsClient c = DiagnosticsClient.over(7, relay("cat > /dev/null"), Duration.ofSeconds(1));
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> c.generateCoreDump(tmp.resolve("x.dmp"), DiagnosticsClient.DUMP_TYPE_FULL, Duration.ofSeconds(1)))
                .isInstanceOf(DiagnosticsException.class).hasMessageContaining("no answer to GenerateCoreDump from the relay sh -c")
                .hasMessageContaining("within 1 s");
        assertThat((System.nanoTime() - t0) / 1e9).as("seconds").isLessThan(8);
    }

    @Test
    void aRelayThatEndsCleanlyBeforeAnsweringIsAClosedConnection() {
        DiagnosticsClient c = DiagnosticsClient.over(7, relay("exit 0"), Duration.ofSeconds(5));
        assertThatThrownBy(() -> c.generateCoreDump(tmp.resolve("x.dmp"), DiagnosticsClient.DUMP_TYPE_FULL, Duration.ofSeconds(5)))
                .isInstanceOf(DiagnosticsException.class).hasMessageContaining("the runtime closed the relay sh -c");
    }

    @Test
    void aWriteTheRelayNeverTakesTimesOutAndEndsTheRelay() throws IOException {
        // more than a pipe holds (64 KiB on Linux) to a relay that never reads its stdin
        ProcessTransport t = ProcessTransport.start(new ProcessBuilder("sleep", "60"), "the relay sleep 60");
        try (t) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> t.write(ByteBuffer.allocate(1 << 20), System.nanoTime() + Duration.ofSeconds(1).toNanos()))
                    .isInstanceOf(DiagnosticsException.class).hasMessageContaining("timed out writing to the relay sleep 60");
            assertThat((System.nanoTime() - t0) / 1e9).as("seconds").isLessThan(5);
            assertThatThrownBy(() -> t.read(ByteBuffer.allocate(16), System.nanoTime() + Duration.ofSeconds(5).toNanos()))
                    .as("the relay was ended").isInstanceOf(DiagnosticsException.class).hasMessageContaining("ended with exit code");
        }
    }

    @Test
    void aRelayThatCannotStartIsAnError() {
        ProcessEndpoint relay = new ProcessEndpoint(List.of(tmp.resolve("no-such-relay").toString()), Map.of(), null);
        assertThatThrownBy(relay::connect).isInstanceOf(DiagnosticsException.class).hasMessageContaining("cannot start the relay");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
