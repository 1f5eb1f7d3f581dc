package io.clrheap.capture.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The IPC client against fake runtimes on a Unix domain socket: silent, refusing, answering. */
class DiagnosticsClientTest {

    @TempDir
    Path tmp;

    /** Serves one connection: reads the request, answers with what {@code answer} makes of it (nothing when null). */
    private Thread serve(ServerSocketChannel server, Function<ByteBuffer, ByteBuffer> answer) {
        Thread t = Thread.ofVirtual().start(() -> {
            try (SocketChannel c = server.accept()) {
                ByteBuffer request = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
                c.read(request);
                request.flip();
                ByteBuffer reply = answer.apply(request);
                if (reply != null) {
                    c.write(reply);
                }
                Thread.sleep(3000);
            } catch (IOException | InterruptedException e) {
                // the test is over
            }
        });
        return t;
    }

    private ServerSocketChannel fakeRuntime(long pid) throws IOException {
        ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        s.bind(UnixDomainSocketAddress.of(tmp.resolve("dotnet-diagnostic-" + pid + "-12345-socket")));
        return s;
    }

    private static ByteBuffer answer(int id, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(20 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(IpcMessage.MAGIC).putShort((short) (20 + payload.length)).put((byte) 0xff).put((byte) id).putShort((short) 0).put(payload);
        return b.flip();
    }

    @Test
    void aRuntimeThatDoesNotAnswerTimesOutWithAClearMessage() throws IOException {
        try (ServerSocketChannel s = fakeRuntime(101)) {
            serve(s, r -> null);
            DiagnosticsClient c = DiagnosticsClient.forProcess(101, List.of(tmp), Duration.ofSeconds(1));
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> c.generateCoreDump(tmp.resolve("x.core"), DiagnosticsClient.DUMP_TYPE_FULL, Duration.ofSeconds(1)))
                    .isInstanceOf(DiagnosticsException.class).hasMessageContaining("no answer to GenerateCoreDump").hasMessageContaining("within 1 s");
            assertThat((System.nanoTime() - t0) / 1e9).isLessThan(5);
        }
    }

    @Test
    void aRefusalCarriesItsHresult() throws IOException {
        try (ServerSocketChannel s = fakeRuntime(102)) {
            serve(s, r -> answer(0xff, new byte[] {0x05, 0x40, 0x00, (byte) 0x80}));
            DiagnosticsClient c = DiagnosticsClient.forProcess(102, List.of(tmp), Duration.ofSeconds(5));
            assertThatThrownBy(() -> c.generateCoreDump(tmp.resolve("x.core"), DiagnosticsClient.DUMP_TYPE_FULL, Duration.ofSeconds(5)))
                    .isInstanceOf(DiagnosticsException.class).hasMessageContaining("refused GenerateCoreDump").hasMessageContaining("0x80004005");
        }
    }

    @Test
    void theDumpRequestIsLaidOutAsTheProtocolSays() throws IOException {
        ByteBuffer[] seen = new ByteBuffer[1];
        try (ServerSocketChannel s = fakeRuntime(103)) {
            serve(s, r -> {
                seen[0] = r;
                return answer(0, new byte[4]);
            });
            DiagnosticsClient c = DiagnosticsClient.forProcess(103, List.of(tmp), Duration.ofSeconds(5));
            c.generateCoreDump(Path.of("/d/x"), DiagnosticsClient.DUMP_TYPE_FULL, Duration.ofSeconds(5));
        }
        ByteBuffer r = seen[0];
        // header, then u32 length (chars with the NUL), UTF-16 "/d/x\0", u32 dump type, u32 diagnostics
        assertThat(r.limit()).isEqualTo(20 + 4 + 10 + 4 + 4);
        assertThat(r.getShort(14)).isEqualTo((short) r.limit());
        assertThat(r.get(16)).isEqualTo((byte) 1);
        assertThat(r.get(17)).isEqualTo((byte) 1);
        assertThat(r.getInt(20)).isEqualTo(5);
        assertThat(r.getInt(34)).isEqualTo(4);
    }

    @Test
    void noSocketNamesThePidAndTheFoldersSearched() {
        assertThatThrownBy(() -> DiagnosticsClient.forProcess(999999, List.of(tmp), Duration.ofSeconds(1))).isInstanceOf(DiagnosticsException.class)
                .hasMessageContaining("dotnet-diagnostic-999999-").hasMessageContaining(tmp.toString());
    }
}
