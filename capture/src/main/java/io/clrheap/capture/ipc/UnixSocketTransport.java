package io.clrheap.capture.ipc;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/** A connection to a runtime's Unix domain diagnostics socket: a non-blocking channel, waited on with a selector until each deadline. */
final class UnixSocketTransport implements IpcTransport {

    private final Path socket;
    private final SocketChannel channel;
    private final Selector selector;

    private UnixSocketTransport(Path socket, SocketChannel channel, Selector selector) {
        this.socket = socket;
        this.channel = channel;
        this.selector = selector;
    }

    static UnixSocketTransport open(Path socket) throws DiagnosticsException {
        SocketChannel ch = null;
        try {
            ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.configureBlocking(false);
            Selector sel = Selector.open();
            ch.register(sel, SelectionKey.OP_READ);
            return new UnixSocketTransport(socket, ch, sel);
        } catch (IOException e) {
            try {
                if (ch != null) {
                    ch.close();
                }
            } catch (IOException ignored) {
                // the connect failure is what matters
            }
            throw new DiagnosticsException("cannot connect to the diagnostics socket " + socket + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return socket.toString();
    }

    @Override
    public void write(ByteBuffer message, long deadline) throws IOException {
        while (message.hasRemaining()) {
            if (channel.write(message) == 0) {
                if (System.nanoTime() > deadline) {
                    throw new DiagnosticsException("timed out writing to " + socket);
                }
                sleepBriefly();
            }
        }
    }

    private static void sleepBriefly() throws DiagnosticsException {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DiagnosticsException("interrupted");
        }
    }

    @Override
    public int read(ByteBuffer into, long deadline) throws IOException {
        while (true) {
            int n = channel.read(into);
            if (n != 0) {
                return n;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return 0;
            }
            selector.select(Math.max(1, left / 1_000_000));
            selector.selectedKeys().clear();
        }
    }

    @Override
    public void close() throws IOException {
        try {
            selector.close();
        } finally {
            channel.close();
        }
    }
}
