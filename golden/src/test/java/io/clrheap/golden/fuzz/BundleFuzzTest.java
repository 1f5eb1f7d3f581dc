package io.clrheap.golden.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.golden.fuzz.ByteMutator.Field;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.runtime.TargetOpener;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * Fuzzes the fixture bundle reader (its safe tar and xz reading, the manifest checks) and what runs after it opens:
 * any bytes either open, find the runtime (or are refused with a TargetException) and walk, or are refused with a
 * {@link DumpFormatException} naming the bundle; never another exception, never more than 1 s.
 *
 * <p>Most mutations are made to the tar inside and the result compressed again, since a flipped bit in the xz
 * stream only ever meets the xz checksum: tar header fields (names with {@code ..}, absolute and backslash paths,
 * octal and base-256 sizes, link and directory type flags, the checksum), the manifest's numbers and text, entries
 * dropped, duplicated or cut short. The rest mutate the xz bytes themselves (headers, truncation).
 */
class BundleFuzzTest {

    static final FuzzTarget TARGET = new FuzzTarget() {
        private Path last;

        @Override
        public String name() {
            return "bundle";
        }

        @Override
        public String run(byte[] input) throws Exception {
            last = InputFiles.write(input, ".clrheap.tar.xz");
            try (Bundle bundle = Bundle.open(last)) {
                return "opened, " + WalkAfterOpen.walk(() -> new TargetOpener(WalkAfterOpen.PROFILES).open(bundle, bundle.mappedFiles(), Optional.empty()));
            }
        }

        @Override
        public String refusal(Throwable thrown) {
            return thrown instanceof DumpFormatException ? InputFiles.namesFile(thrown, last)
                    : "not a DumpFormatException";
        }
    };

    /** A tar entry: its 512-byte header and its data (unpadded). */
    private record Entry(byte[] header, byte[] data) {
    }

    private static final String[] NAMES = {"../escape", "/etc/passwd", "memory\\x.bin", "memory/../../x", "", "manifest.json",
            "a".repeat(100), "memory/\u0001.bin", "answer/../../../x"};
    private static final byte[] TYPE_FLAGS = {'0', '1', '2', '3', '5', '6', '7', 'L', 'K', 'x', 'g', 0, 'S'};
    private static final Pattern NUMBER = Pattern.compile("0x[0-9a-fA-F]+|\\d+");

    static byte[] mutate(byte[] parent, SplittableRandom random) {
        List<Entry> entries = random.nextInt(5) == 0 ? null : untar(unxz(parent));
        if (entries == null || entries.isEmpty()) {
            List<Field> xzHeader = List.of(new Field(6, 2), new Field(8, 4), new Field(12, 1), new Field(13, 1), new Field(14, 4),
                    new Field(parent.length - 12, 4), new Field(parent.length - 8, 4), new Field(parent.length - 4, 2));
            return ByteMutator.mutate(parent, xzHeader, random);
        }
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n && !entries.isEmpty(); i++) {
            mutateTar(entries, random);
        }
        return xz(tar(entries, random.nextInt(10) != 0));
    }

    private static void mutateTar(List<Entry> entries, SplittableRandom random) {
        int pick = random.nextInt(entries.size());
        Entry e = entries.get(pick);
        byte[] h = e.header();
        switch (random.nextInt(9)) {
            case 0 -> {
                Arrays.fill(h, 0, 100, (byte) 0);
                byte[] name = NAMES[random.nextInt(NAMES.length)].getBytes(StandardCharsets.UTF_8);
                System.arraycopy(name, 0, h, 0, Math.min(100, name.length));
            }
            case 1 -> {
                long size = random.nextBoolean() ? ByteMutator.boundary(random, e.data().length, 8, e.data().length, 0) & 0x7ff_ffff_ffffL
                        : e.data().length + random.nextInt(-8, 9);
                octal(h, 124, 12, size);
            }
            case 2 -> { // base-256 size (GNU): the top bit of the first byte set, big-endian, possibly negative
                h[124] = (byte) (random.nextBoolean() ? 0x80 : 0xff);
                for (int i = 125; i < 136; i++) {
                    h[i] = (byte) random.nextInt(256);
                }
            }
            case 3 -> h[156] = TYPE_FLAGS[random.nextInt(TYPE_FLAGS.length)];
            case 4 -> {
                if (pick == 0) {
                    entries.set(0, new Entry(h, manifest(e.data(), random)));
                } else {
                    entries.set(pick, new Entry(h, ByteMutator.mutate(e.data(), List.of(), random)));
                }
                octal(h, 124, 12, entries.get(pick).data().length);
            }
            case 5 -> entries.remove(pick);
            case 6 -> entries.add(random.nextInt(entries.size() + 1), new Entry(h.clone(), e.data()));
            case 7 -> entries.set(pick, new Entry(h, Arrays.copyOf(e.data(), random.nextInt(e.data().length + 1)))); // size field kept
            default -> {
                byte[] mutated = ByteMutator.mutate(h, List.of(new Field(100, 8), new Field(148, 8), new Field(257, 8), new Field(345, 8)), random);
                System.arraycopy(mutated, 0, h, 0, Math.min(512, mutated.length));
            }
        }
        if (random.nextInt(5) != 0) {
            checksum(h);
        }
    }

    /** The manifest with a number set to a boundary value, or its text cut or duplicated in places. */
    private static byte[] manifest(byte[] json, SplittableRandom random) {
        String text = new String(json, StandardCharsets.UTF_8);
        List<int[]> numbers = new ArrayList<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            numbers.add(new int[] {m.start(), m.end()});
        }
        if (numbers.isEmpty() || random.nextInt(4) == 0) {
            return ByteMutator.mutate(json, List.of(), random);
        }
        int[] at = numbers.get(random.nextInt(numbers.size()));
        String[] values = {"0", "-1", "0x0", "0xffffffffffffffff", "9223372036854775807", "9223372036854775808", "0x7fffffffffffffff",
                "1e400", "65535", "4294967296", "1", "0x8000000000000000", "-9223372036854775808", "99999999999999999999"};
        return (text.substring(0, at[0]) + values[random.nextInt(values.length)] + text.substring(at[1])).getBytes(StandardCharsets.UTF_8);
    }

    private static void octal(byte[] h, int offset, int width, long value) {
        byte[] digits = String.format("%0" + (width - 1) + "o", value).getBytes(StandardCharsets.US_ASCII);
        Arrays.fill(h, offset, offset + width, (byte) 0);
        System.arraycopy(digits, Math.max(0, digits.length - (width - 1)), h, offset, Math.min(width - 1, digits.length));
    }

    private static void checksum(byte[] h) {
        Arrays.fill(h, 148, 156, (byte) ' ');
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        h[155] = ' ';
    }

    /** The entries of a tar, or null when it does not parse as one (a parent whose xz was mutated). */
    private static List<Entry> untar(byte[] tar) {
        if (tar == null) {
            return null;
        }
        List<Entry> entries = new ArrayList<>();
        int at = 0;
        while (at + 512 <= tar.length && tar[at] != 0) {
            byte[] h = Arrays.copyOfRange(tar, at, at + 512);
            String size = new String(h, 124, 12, StandardCharsets.US_ASCII).replace("\0", "").trim();
            long length;
            try {
                length = Long.parseLong(size, 8);
            } catch (NumberFormatException e) {
                return null;
            }
            if (length < 0 || at + 512 + length > tar.length) {
                return null;
            }
            entries.add(new Entry(h, Arrays.copyOfRange(tar, at + 512, at + 512 + (int) length)));
            at += 512 + (int) ((length + 511) & ~511L);
        }
        return entries;
    }

    private static byte[] tar(List<Entry> entries, boolean endBlocks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Entry e : entries) {
            out.writeBytes(e.header());
            out.writeBytes(e.data());
            out.writeBytes(new byte[(512 - e.data().length % 512) % 512]);
        }
        if (endBlocks) {
            out.writeBytes(new byte[1024]);
        }
        return out.toByteArray();
    }

    private static byte[] unxz(byte[] xz) {
        try (InputStream in = new XZInputStream(new ByteArrayInputStream(xz), 64 * 1024)) {
            return in.readNBytes(16 << 20);
        } catch (IOException e) {
            return null;
        }
    }

    private static byte[] xz(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (XZOutputStream xz = new XZOutputStream(out, new LZMA2Options(0))) {
            xz.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @Test
    void everyRegressionInputIsOpenedOrRefusedWithADumpFormatException() {
        assertThat(FuzzCampaign.replayRegressions(TARGET)).isEmpty();
    }

    @Test
    void mutatedBundlesAreOpenedOrRefusedWithinASecondEach() {
        FuzzCampaign.Report report = FuzzCampaign.run(TARGET, BundleFuzzTest::mutate);
        assertThat(report.findings()).as("inputs that failed (written under target/fuzz-findings/bundle)").isEmpty();
    }
}
