package io.clrheap.walker.source.bundle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Writes tar archives byte by byte for the tests, hostile ones included (links, devices, lying sizes, escaping names):
 * POSIX ustar headers (IEEE Std 1003.1 pax, "ustar Interchange Format"), written here, not by the reader's code.
 */
final class TestTar {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** A regular file. */
    TestTar file(String name, byte[] data) {
        return entry(name, '0', data, data.length);
    }

    /** An entry of {@code type} whose header declares {@code declaredSize} and which is followed by {@code data}. */
    TestTar entry(String name, char type, byte[] data, long declaredSize) {
        out.writeBytes(header(name, type, declaredSize));
        out.writeBytes(data);
        pad(data.length);
        return this;
    }

    /** A POSIX.1-2001 extended header ({@code x}) with the records given, for the next entry. */
    TestTar extended(Map<String, String> records) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        records.forEach((key, value) -> {
            byte[] kv = (" " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8);
            int length = kv.length + 1;
            while (Integer.toString(length).length() + kv.length != length) {
                length++;
            }
            body.writeBytes((length + new String(kv, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
        });
        return entry("./PaxHeaders/x", 'x', body.toByteArray(), body.size());
    }

    /** Bytes as they are. */
    TestTar raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    /** The end-of-archive marker (two zero blocks) and padding to a 10 KiB record, as tar writers do. */
    byte[] finish() {
        out.writeBytes(new byte[1024]);
        int record = 10240;
        out.writeBytes(new byte[(record - out.size() % record) % record]);
        return out.toByteArray();
    }

    /** The archive so far, without an end-of-archive marker. */
    byte[] unfinished() {
        return out.toByteArray();
    }

    private void pad(long length) {
        out.writeBytes(new byte[(int) ((512 - length % 512) % 512)]);
    }

    /** A regular file whose size is written in the base-256 form (as GNU tar and star do from 8 GiB on). */
    TestTar fileWithBase256Size(String name, byte[] data) {
        out.writeBytes(header(name, '0', data.length, true));
        out.writeBytes(data);
        pad(data.length);
        return this;
    }

    static byte[] header(String name, char type, long size) {
        return header(name, type, size, size >= (1L << 33));
    }

    static byte[] header(String name, char type, long size, boolean base256) {
        byte[] h = new byte[512];
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        if (n.length > 100) {
            throw new IllegalArgumentException("name longer than 100 bytes: use an extended header");
        }
        System.arraycopy(n, 0, h, 0, n.length);
        octal(h, 100, 8, 0644);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        if (!base256) {
            octal(h, 124, 12, size);
        } else { // base-256 (GNU and star; POSIX leaves it to implementations)
            h[124] = (byte) 0x80;
            for (int i = 0; i < 8; i++) {
                h[135 - i] = (byte) (size >>> (8 * i));
            }
        }
        octal(h, 136, 12, 0);
        h[156] = (byte) type;
        if (type == '1' || type == '2') {
            byte[] target = "/etc/passwd".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(target, 0, h, 157, target.length);
        }
        byte[] magic = "ustar\u000000".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(magic, 0, h, 257, magic.length);
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        byte[] chksum = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(chksum, 0, h, 148, 8);
        return h;
    }

    private static void octal(byte[] h, int at, int length, long value) {
        byte[] digits = String.format("%0" + (length - 1) + "o", value).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(digits, 0, h, at, digits.length);
        h[at + length - 1] = 0;
    }

    static byte[] xz(byte[] bytes) {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (XZOutputStream xz = new XZOutputStream(compressed, new LZMA2Options(1))) {
            xz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return compressed.toByteArray();
    }
}
