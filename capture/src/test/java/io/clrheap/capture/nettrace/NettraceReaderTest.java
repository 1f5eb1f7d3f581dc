package io.clrheap.capture.nettrace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class NettraceReaderTest {

    private static final String PROVIDER = "Microsoft-Windows-DotNETRuntime";

    private static byte[] payload(int n) {
        return new NettraceWriter.Payload().u32(n).bytes();
    }

    private static Nettrace read(byte[] b) throws IOException {
        return NettraceReader.read(new ByteArrayInputStream(b));
    }

    /** Two threads' buffers, each sorted in itself, written one after the other: the later thread's events are older. */
    private static byte[] twoThreads(boolean compressed) {
        return new NettraceWriter()
                .metadataBlock(1, PROVIDER, 18, "GCBulkNode", 0)
                .metadataBlock(2, "Other", 7, "", 1)
                .stackBlock()
                .eventBlock(compressed, List.of(
                        new NettraceWriter.Event(1, 11, 1_000_100, payload(1)),
                        new NettraceWriter.Event(1, 11, 1_000_300, payload(3)),
                        new NettraceWriter.Event(2, 22, 1_000_050, payload(0)),
                        new NettraceWriter.Event(2, 22, 1_000_200, new byte[] {9, 9})))
                .sequencePointBlock(1_000_400)
                .eventBlock(compressed, List.of(new NettraceWriter.Event(1, 11, 1_000_250, payload(2))))
                .finish();
    }

    @Test
    void eventsOfOutOfOrderThreadBuffersComeBackSortedByTimestampWithTheirMetadata() throws IOException {
        for (boolean compressed : new boolean[] {true, false}) {
            Nettrace t = read(twoThreads(compressed));
            assertThat(t.info().processId()).isEqualTo(4242);
            assertThat(t.info().pointerSize()).isEqualTo(8);
            assertThat(t.events()).extracting(NettraceEvent::timestamp).containsExactly(1_000_050L, 1_000_100L, 1_000_200L, 1_000_250L, 1_000_300L);
            assertThat(t.events()).extracting(e -> e.metadata().eventId()).containsExactly(7, 18, 7, 18, 18);
            assertThat(t.events()).extracting(NettraceEvent::threadId).containsExactly(22L, 11L, 22L, 11L, 11L);
            assertThat(t.events().get(2).payload()).containsExactly(9, 9);
            assertThat(t.events().get(0).metadata().provider()).isEqualTo("Other");
            assertThat(t.events().get(1).metadata()).isEqualTo(new EventMetadata(1, PROVIDER, 18, "GCBulkNode", 0, 0, 5));
        }
    }

    @Test
    void compressedTimestampsAreDeltasSummedModulo2To64() throws IOException {
        long near = -16L; // 2^64 - 16: the next delta wraps
        byte[] b = new NettraceWriter()
                .metadataBlock(1, PROVIDER, 1, "", 0)
                .eventBlock(true, List.of(new NettraceWriter.Event(1, 1, near, payload(1)), new NettraceWriter.Event(1, 1, near + 32, payload(2))))
                .finish();
        assertThat(read(b).events()).extracting(NettraceEvent::timestamp).containsExactlyInAnyOrder(near, 16L);
    }

    @Test
    void everyTruncationIsRefusedWithTheOffsetWhereTheStreamEnds() {
        byte[] whole = twoThreads(true);
        for (int n = 0; n < whole.length; n++) {
            byte[] cut = Arrays.copyOf(whole, n);
            assertThatThrownBy(() -> read(cut)).as("cut at %d", n).isInstanceOf(NettraceFormatException.class).hasMessageContaining("byte offset");
        }
    }

    @Test
    void theTruncationOffsetIsTheStreamsEnd() {
        byte[] whole = twoThreads(true);
        byte[] cut = Arrays.copyOf(whole, whole.length - 40);
        assertThatThrownBy(() -> read(cut)).isInstanceOfSatisfying(NettraceFormatException.class,
                e -> assertThat(e.offset()).isBetween((long) whole.length - 400, (long) whole.length - 40))
                .hasMessageContaining("truncated");
    }

    @Test
    void anEventWithAnUndefinedMetadataIdIsRefusedAtItsOffset() {
        byte[] b = new NettraceWriter().metadataBlock(1, PROVIDER, 18, "", 0)
                .eventBlock(true, List.of(new NettraceWriter.Event(5, 1, 10, payload(1)))).finish();
        assertThatThrownBy(() -> read(b)).isInstanceOf(NettraceFormatException.class).hasMessageContaining("metadata id 5");
    }

    @Test
    void aBlockLargerThanTheLimitIsRefusedBeforeItIsRead() {
        byte[] b = new NettraceWriter().metadataBlock(1, PROVIDER, 18, "", 0)
                .eventBlock(true, List.of(new NettraceWriter.Event(1, 1, 10, new byte[4000]))).finish();
        NettraceLimits small = new NettraceLimits(1000, 100, 100, 100);
        assertThatThrownBy(() -> NettraceReader.read(new ByteArrayInputStream(b), small)).isInstanceOf(NettraceFormatException.class)
                .hasMessageContaining("allowed 0..1000");
    }

    @Test
    void aPayloadRunningPastItsBlockIsRefused() {
        // one compressed event: flags MetadataId|DataLength, id 1, timestamp 5, payload size 200, 2 bytes of payload
        byte[] content = {20, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0x81, 1, 5, (byte) 200, 1, 1, 0, 0};
        byte[] b = new NettraceWriter().metadataBlock(1, PROVIDER, 18, "", 0).rawBlock("EventBlock", content).finish();
        assertThatThrownBy(() -> read(b)).isInstanceOf(NettraceFormatException.class).hasMessageContaining("payload of 200 bytes");
    }

    @Test
    void somethingElseIsNotANettraceStream() {
        assertThatThrownBy(() -> read("Netspeak and more bytes".getBytes())).isInstanceOf(NettraceFormatException.class)
                .hasMessageContaining("not a nettrace stream");
    }

    @Test
    void anUnknownObjectTypeIsRefused() {
        byte[] b = new NettraceWriter().rawBlock("Mystery", new byte[8]).finish();
        assertThatThrownBy(() -> read(b)).isInstanceOf(NettraceFormatException.class).hasMessageContaining("unknown object type \"Mystery\"");
    }
}
