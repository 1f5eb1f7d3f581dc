package io.clrheap.capture.ipc;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A client of a .NET runtime's diagnostics IPC (docs/ipc-protocol.md sections 1-4, which cite the protocol's own
 * document for each fact) over an {@link IpcEndpoint}: on Linux its Unix domain socket
 * {@code $TMPDIR/dotnet-diagnostic-PID-KEY-socket} ({@link #forProcess}); elsewhere, for instance, a relay process
 * that opens a Windows runtime's named pipe ({@link #over}). Commands: {@code Dump/GenerateCoreDump},
 * {@code EventPipe/CollectTracing2} and {@code EventPipe/StopTracing}. Every wait has a deadline; a runtime that does
 * not answer in time is a {@link DiagnosticsException} saying what was awaited.
 */
public final class DiagnosticsClient {

    static final int DUMP_COMMAND_SET = 0x01;
    static final int GENERATE_CORE_DUMP = 0x01;
    static final int EVENTPIPE_COMMAND_SET = 0x02;
    static final int STOP_TRACING = 0x01;
    static final int COLLECT_TRACING_2 = 0x03;
    /** Dump type: full memory (createdump's DumpType.Full). */
    public static final int DUMP_TYPE_FULL = 4;
    /** CollectTracing format: nettrace. */
    static final int FORMAT_NETTRACE = 1;

    private final long pid;
    private final IpcEndpoint endpoint;
    private final Duration timeout;

    private DiagnosticsClient(long pid, IpcEndpoint endpoint, Duration timeout) {
        this.pid = pid;
        this.endpoint = endpoint;
        this.timeout = timeout;
    }

    /** A client of process {@code pid}'s diagnostics socket, found in the given temporary folders. */
    public static DiagnosticsClient forProcess(long pid, List<Path> tempFolders, Duration timeout) throws DiagnosticsException {
        return new DiagnosticsClient(pid, new UnixSocketEndpoint(findSocket(pid, tempFolders)), timeout);
    }

    /** A client of process {@code pid}'s diagnostics server reached through {@code endpoint}. */
    public static DiagnosticsClient over(long pid, IpcEndpoint endpoint, Duration timeout) {
        return new DiagnosticsClient(pid, endpoint, timeout);
    }

    /** The newest {@code dotnet-diagnostic-PID-*-socket} in the folders. */
    public static Path findSocket(long pid, List<Path> tempFolders) throws DiagnosticsException {
        String prefix = "dotnet-diagnostic-" + pid + "-";
        List<Path> found = new ArrayList<>();
        for (Path folder : tempFolders) {
            if (!Files.isDirectory(folder)) {
                continue;
            }
            try (DirectoryStream<Path> s = Files.newDirectoryStream(folder, p -> {
                String n = p.getFileName().toString();
                return n.startsWith(prefix) && n.endsWith("-socket");
            })) {
                s.forEach(found::add);
            } catch (IOException e) {
                throw new DiagnosticsException("cannot list " + folder + ": " + e.getMessage(), e);
            }
        }
        if (found.isEmpty()) {
            throw new DiagnosticsException("no diagnostics socket " + prefix + "*-socket in " + tempFolders
                    + ": is process " + pid + " a .NET process (with DOTNET_EnableDiagnostics not 0), and is TMPDIR the same?");
        }
        found.sort(Comparator.comparing(DiagnosticsClient::modified).reversed());
        return found.getFirst();
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Where the runtime's diagnostics server is reached. */
    public IpcEndpoint endpoint() {
        return endpoint;
    }

    public long pid() {
        return pid;
    }

    /** Dump/GenerateCoreDump: the runtime writes a dump of itself to {@code file} (an absolute path) and answers when done. */
    public void generateCoreDump(Path file, int dumpType, Duration dumpTimeout) throws IOException {
        IpcMessage m = new IpcMessage(DUMP_COMMAND_SET, GENERATE_CORE_DUMP)
                .string(file.toAbsolutePath().toString()).u32(dumpType).u32(0);
        try (IpcConnection c = IpcConnection.open(endpoint)) {
            long deadline = System.nanoTime() + dumpTimeout.toNanos();
            c.write(m.encode(), deadline);
            ByteBuffer payload = response(c, deadline, dumpTimeout, "GenerateCoreDump");
            if (payload.remaining() >= 4) {
                int hr = payload.getInt();
                if (hr != 0) {
                    throw new DiagnosticsException(String.format(Locale.ROOT, "the runtime refused GenerateCoreDump to %s: HRESULT 0x%08x", file, hr));
                }
            }
        }
    }

    /**
     * EventPipe/CollectTracing2 with nettrace format and no rundown: the session's id and the connection the
     * nettrace stream then comes on.
     */
    public TraceSession collectTracing(int circularBufferMb, List<Provider> providers) throws IOException {
        IpcMessage m = new IpcMessage(EVENTPIPE_COMMAND_SET, COLLECT_TRACING_2)
                .u32(circularBufferMb).u32(FORMAT_NETTRACE).u8(0).u32(providers.size());
        for (Provider p : providers) {
            m.u64(p.keywords()).u32(p.level()).string(p.name()).string(p.filter());
        }
        IpcConnection c = IpcConnection.open(endpoint);
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            c.write(m.encode(), deadline);
            ByteBuffer payload = response(c, deadline, timeout, "CollectTracing2");
            if (payload.remaining() < 8) {
                throw new DiagnosticsException("CollectTracing2's answer has " + payload.remaining() + " payload bytes, not a u64 session id");
            }
            return new TraceSession(this, c, payload.getLong());
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** EventPipe/StopTracing on a connection of its own. */
    void stopTracing(long sessionId) throws IOException {
        IpcMessage m = new IpcMessage(EVENTPIPE_COMMAND_SET, STOP_TRACING).u64(sessionId);
        try (IpcConnection c = IpcConnection.open(endpoint)) {
            long deadline = System.nanoTime() + timeout.toNanos();
            c.write(m.encode(), deadline);
            response(c, deadline, timeout, "StopTracing");
        }
    }

    Duration timeout() {
        return timeout;
    }

    /** Reads an answer's header and payload; an error answer becomes an exception with its HRESULT. */
    private static ByteBuffer response(IpcConnection c, long deadline, Duration timeout, String command) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(IpcMessage.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        c.readFully(header, deadline, timeout, "answer to " + command);
        header.flip();
        byte[] magic = new byte[IpcMessage.MAGIC.length];
        header.get(magic);
        if (!Arrays.equals(magic, IpcMessage.MAGIC)) {
            throw new DiagnosticsException("the answer to " + command + " does not start with DOTNET_IPC_V1: "
                    + new String(magic, StandardCharsets.ISO_8859_1).replaceAll("[^ -~]", "."));
        }
        int size = Short.toUnsignedInt(header.getShort());
        int set = Byte.toUnsignedInt(header.get());
        int id = Byte.toUnsignedInt(header.get());
        if (size < IpcMessage.HEADER_SIZE) {
            throw new DiagnosticsException("the answer to " + command + " declares " + size + " bytes, less than its header");
        }
        ByteBuffer payload = ByteBuffer.allocate(size - IpcMessage.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        c.readFully(payload, deadline, timeout, "the payload of the answer to " + command);
        payload.flip();
        if (set != IpcMessage.SERVER_COMMAND_SET) {
            throw new DiagnosticsException(String.format(Locale.ROOT, "the answer to %s has command set 0x%02x, not the server's 0xff", command, set));
        }
        if (id == IpcMessage.SERVER_ERROR) {
            int hr = payload.remaining() >= 4 ? payload.getInt() : 0;
            throw new DiagnosticsException(String.format(Locale.ROOT, "the runtime refused %s: HRESULT 0x%08x", command, hr));
        }
        if (id != IpcMessage.SERVER_OK) {
            throw new DiagnosticsException(String.format(Locale.ROOT, "the answer to %s has command id 0x%02x, neither OK nor Error", command, id));
        }
        return payload;
    }

    /** An EventPipe provider to enable. */
    public record Provider(String name, long keywords, int level, String filter) {
    }

    /** A running EventPipe session: read its stream, then stop it. */
    public static final class TraceSession implements AutoCloseable {
        private final DiagnosticsClient client;
        private final IpcConnection connection;
        private final long id;

        TraceSession(DiagnosticsClient client, IpcConnection connection, long id) {
            this.client = client;
            this.connection = connection;
            this.id = id;
        }

        public long id() {
            return id;
        }

        /**
         * Copies the stream until it has been idle for {@code idle} (after its first byte, which must come within the
         * client's timeout), or for {@code max} at most; then sends StopTracing on a second connection and copies the
         * rest of the stream until the runtime ends it (within the client's timeout). Returns the bytes copied.
         */
        public long record(OutputStream out, Duration idle, Duration max) throws IOException {
            return record(out, idle, max, () -> false);
        }

        /**
         * As {@link #record(OutputStream, Duration, Duration)}, and also stops copying (then stops the session) once
         * {@code enough} says so, though the stream is not idle: a busy process streams GC events without a pause.
         */
        public long record(OutputStream out, Duration idle, Duration max, java.util.function.BooleanSupplier enough) throws IOException {
            IpcConnection.CopyResult first = connection.copy(out, idle, client.timeout(), max, enough);
            if (first.bytes() == 0 && !first.ended()) {
                throw new DiagnosticsException("no trace data from " + connection.describe() + " within " + client.timeout().toSeconds() + " s");
            }
            if (first.ended()) {
                return first.bytes();
            }
            client.stopTracing(id);
            IpcConnection.CopyResult rest = connection.copy(out, client.timeout(), client.timeout(), client.timeout());
            if (!rest.ended()) {
                throw new DiagnosticsException("the trace stream did not end within " + client.timeout().toSeconds() + " s of StopTracing");
            }
            return first.bytes() + rest.bytes();
        }

        @Override
        public void close() throws IOException {
            connection.close();
        }
    }
}
