package io.clrheap.capture.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.capture.nettrace.Nettrace;
import io.clrheap.capture.nettrace.NettraceFormatException;
import io.clrheap.capture.nettrace.NettraceReader;
import io.clrheap.capture.nettrace.NettraceWriter;
import io.clrheap.capture.nettrace.NettraceWriter.Event;
import io.clrheap.capture.nettrace.NettraceWriter.Payload;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GcHeapSnapshotTest {

    private static final String P = "Microsoft-Windows-DotNETRuntime";

    private static Payload node(Payload p, long address, long size, long mt, long edges) {
        return p.u64(address).u64(size).u64(mt).u64(edges);
    }

    private static Payload range(int gen, long start, long used, long reserved) {
        return new Payload().u8(gen).u64(start).u64(used).u64(reserved).u16(0);
    }

    /** A heap snapshot as the runtime streams it: two server heaps, the walk split over two GCBulkNode events. */
    private static byte[] stream() {
        NettraceWriter w = new NettraceWriter();
        int[][] md = {{1, 1, 2}, {2, 2, 1}, {3, 4, 2}, {4, 15, 0}, {5, 16, 0}, {6, 17, 0}, {7, 18, 0}, {8, 19, 0}, {9, 23, 0}, {10, 38, 0}, {11, 204, 3},
            {12, 205, 2}, {13, 3, 1}};
        for (int[] m : md) {
            w.metadataBlock(m[0], P, m[1], "", m[2]);
        }
        w.metadataBlock(14, "Other", 18, "", 0);
        List<Event> gc = new ArrayList<>();
        long t = 1000;
        gc.add(new Event(1, 1, t++, new Payload().u32(4).u32(2).u32(1).u32(0).u16(0).u64(0).bytes()));
        gc.add(new Event(9, 1, t++, range(4, 0x1000, 0, 0x100).bytes()));
        gc.add(new Event(9, 1, t++, range(2, 0x2000, 0x40, 0x100).bytes()));
        gc.add(new Event(9, 1, t++, range(0, 0x3000, 0x80, 0x100).bytes()));
        gc.add(new Event(9, 1, t++, range(4, 0x4000, 0x10, 0x100).bytes()));
        gc.add(new Event(9, 1, t++, range(0, 0x5000, 0x20, 0x100).bytes()));
        gc.add(new Event(12, 1, t++, new Payload().u64(20971520).u32(2).u32(2).u32(0).u32(1).u32(0x14).u16(0).u32(0).u32(0).bytes()));
        gc.add(new Event(11, 1, t++, new byte[486]));
        gc.add(new Event(9, 1, t++, range(2, 0x2000, 0x40, 0x100).bytes()));
        gc.add(new Event(9, 1, t++, range(2, 0x6000, 0x8, 0x100).bytes()));
        gc.add(new Event(13, 1, t++, new byte[6]));
        gc.add(new Event(2, 1, t + 1000, new Payload().u32(4).u32(2).u16(0).bytes()));
        Payload stats = new Payload();
        for (int i = 0; i < 8; i++) {
            stats.u64(i + 1);
        }
        stats.u64(90).u64(9).u32(2).u32(0).u32(82).u16(0).u64(1000).u64(0);
        gc.add(new Event(3, 1, t + 1001, stats.bytes()));
        // the walk: a second node event written (and timestamped) before the first
        List<Event> walk = new ArrayList<>();
        walk.add(new Event(7, 2, 2000, node(node(new Payload().u32(1).u32(2).u16(0), 0x3010, 24, 0xa0, 0), 0x2010, 30, 0xb0, 1).bytes()));
        walk.add(new Event(7, 2, 2001, node(node(new Payload().u32(0).u32(2).u16(0), 0x3000, 40, 0xb0, 2), 0x2000, 22, 0xc0, 0).bytes()));
        walk.add(new Event(8, 2, 2002, new Payload().u32(0).u32(3).u16(0).u64(0x2000).u32(0).u64(0x3010).u32(1).u64(0x3000).u32(0).bytes()));
        walk.add(new Event(4, 2, 2003, new Payload().u32(2).u16(0)
                .u64(0xb0).u64(0x77).u32(0).u32(0).u8(18).utf16("System.Object[]").u32(0)
                .u64(0xc0).u64(0x77).u32(0).u32(0).u8(14).utf16("System.String").u32(1).u64(0x99).bytes()));
        walk.add(new Event(5, 2, 2004, new Payload().u32(0).u32(2).u16(0).u64(0x3000).u8(2).u32(1).u64(0x7f00).u64(0).u8(0).u32(0).u64(0x55).bytes()));
        walk.add(new Event(6, 2, 2005, new Payload().u32(0).u32(1).u16(0).u64(0x2000).u64(0x2010).u64(0x7f08).bytes()));
        walk.add(new Event(10, 2, 2006, new Payload().u32(1).u64(1).u16(0).u64(0x9000).u64(0x3000).u64(0xb0).u32(0).utf16("s_cache").bytes()));
        walk.add(new Event(14, 2, 2007, node(new Payload().u32(0).u32(1).u16(0), 0x1, 1, 1, 0).bytes()));
        return w.eventBlock(true, walk).eventBlock(true, gc).finish();
    }

    @Test
    void theSnapshotIsWrittenInGoldenRealsFormats(@TempDir Path dir) throws IOException {
        Nettrace t = NettraceReader.read(new ByteArrayInputStream(stream()));
        GcHeapSnapshot s = GcHeapSnapshot.decode(t);
        s.write(dir);
        assertThat(Files.readAllLines(dir.resolve("live-objects.txt"))).containsExactly(GcHeapSnapshot.LIVE_OBJECTS_HEADER,
                "0x2000 22 0xc0 System.String",
                "0x2010 30 0xb0 System.Object[]",
                "0x3000 40 0xb0 System.Object[]",
                "0x3010 24 0xa0 ?");
        assertThat(Files.readAllLines(dir.resolve("refs.txt"))).containsExactly(GcHeapSnapshot.REFS_HEADER,
                "0x3000: 0x2000 0x3010",
                "0x2010: 0x3000");
        assertThat(Files.readAllLines(dir.resolve("roots.txt"))).containsExactly(GcHeapSnapshot.ROOTS_HEADER,
                "ROOT Handle 0x1 0x7f00 0x3000",
                "ROOT Stack 0x0 0x55 0x0",
                GcHeapSnapshot.DEPENDENT_HEADER,
                "DEPENDENT 0x7f08 0x2000 0x2010",
                GcHeapSnapshot.STATIC_HEADER,
                "STATIC 0x9000 0x3000 0xb0 0x0 s_cache");
        List<String> gc = Files.readAllLines(dir.resolve("gc-events.txt"));
        assertThat(gc.subList(0, 5)).isEqualTo(GcHeapSnapshot.GC_EVENTS_HEADER);
        assertThat(gc.subList(5, gc.size())).containsExactly(
                "GCStart count=4 depth=2 reason=1 type=0 ts=1000",
                "GCGenerationRange phase=start heap=0 gen=4 start=0x1000 end=0x1000 reservedEnd=0x1100 used=0 ts=1001",
                "GCGenerationRange phase=start heap=0 gen=2 start=0x2000 end=0x2040 reservedEnd=0x2100 used=64 ts=1002",
                "GCGenerationRange phase=start heap=0 gen=0 start=0x3000 end=0x3080 reservedEnd=0x3100 used=128 ts=1003",
                "GCGenerationRange phase=start heap=1 gen=4 start=0x4000 end=0x4010 reservedEnd=0x4100 used=16 ts=1004",
                "GCGenerationRange phase=start heap=1 gen=0 start=0x5000 end=0x5020 reservedEnd=0x5100 used=32 ts=1005",
                "GCGlobalHeapHistory NumHeaps=2 condemned=2 reason=1 globalMechanisms=0x14 finalYoungestDesired=20971520",
                "GCPerHeapHistory (486 bytes)",
                "GCGenerationRange phase=end heap=0 gen=2 start=0x2000 end=0x2040 reservedEnd=0x2100 used=64 ts=1008",
                "GCGenerationRange phase=end heap=0 gen=2 start=0x6000 end=0x6008 reservedEnd=0x6100 used=8 ts=1009",
                "GCEnd count=4 depth=2 ts=2011",
                "GCHeapStats gen0=1 gen1=3 gen2=5 loh=7 promoted0=2 promoted1=4 promoted2=6 promoted3=8 finPromotedSize=90 finPromotedCount=9 pinnedObjects=2 syncBlocks=0 gcHandles=82 poh=1000 promoted4=0");
    }

    @Test
    void theCommittedNet8FilesParseTheSameWay() throws IOException {
        // the formats above are golden/real/net8-svr's: its first lines, checked by hand, are in the same shape
        List<String> roots = Files.readAllLines(Path.of("../golden/real/net8-svr/roots.txt"));
        assertThat(roots.getFirst()).isEqualTo(GcHeapSnapshot.ROOTS_HEADER);
        assertThat(roots).contains(GcHeapSnapshot.DEPENDENT_HEADER, GcHeapSnapshot.STATIC_HEADER);
        assertThat(Files.readAllLines(Path.of("../golden/real/net8-svr/refs.txt")).getFirst()).isEqualTo(GcHeapSnapshot.REFS_HEADER);
        assertThat(Files.readAllLines(Path.of("../golden/real/net8-svr/live-objects.txt")).getFirst()).isEqualTo(GcHeapSnapshot.LIVE_OBJECTS_HEADER);
        assertThat(Files.readAllLines(Path.of("../golden/real/net8-svr/gc-events.txt")).subList(0, 5)).isEqualTo(GcHeapSnapshot.GC_EVENTS_HEADER);
    }

    @Test
    void aBulkCountPastItsPayloadIsRefusedNamingTheEvent() throws IOException {
        byte[] b = new NettraceWriter().metadataBlock(1, P, 18, "", 0)
                .eventBlock(true, List.of(new Event(1, 1, 5, new Payload().u32(0).u32(1_000_000).u16(0).u64(1).bytes()))).finish();
        Nettrace t = NettraceReader.read(new ByteArrayInputStream(b));
        assertThatThrownBy(() -> GcHeapSnapshot.decode(t)).isInstanceOf(NettraceFormatException.class).hasMessageContaining("GCBulkNode count 1000000");
    }

    @Test
    void moreReferencesThanEdgesIsRefused() throws IOException {
        byte[] b = new NettraceWriter().metadataBlock(1, P, 18, "", 0)
                .eventBlock(true, List.of(new Event(1, 1, 5, node(new Payload().u32(0).u32(1).u16(0), 0x10, 24, 0xa, 3).bytes()))).finish();
        GcHeapSnapshot s = GcHeapSnapshot.decode(NettraceReader.read(new ByteArrayInputStream(b)));
        assertThatThrownBy(s::refs).isInstanceOf(NettraceFormatException.class).hasMessageContaining("object 0x10 has 3 references");
    }

    /**
     * The heap walk runs at the end of the snapshot's GC and lists each object where that GC's compaction put it: the
     * GC's moved ranges (GCBulkMovedObjectRanges, reported before the walk) move every address of the walk back to where
     * the dump, taken before the GC, has the object; an object in no moved range stayed put. Seen on every build: a
     * compacting snapshot GC lists most objects at addresses the dump does not hold them at.
     */
    @Test
    void objectsTheSnapshotsGcMovedAreListedWhereTheyWereBeforeIt(@TempDir Path dir) throws IOException {
        NettraceWriter w = new NettraceWriter();
        w.metadataBlock(1, P, 1, "", 2).metadataBlock(2, P, 22, "", 0).metadataBlock(3, P, 18, "", 0).metadataBlock(4, P, 19, "", 0)
                .metadataBlock(5, P, 16, "", 0).metadataBlock(6, P, 17, "", 0).metadataBlock(7, P, 38, "", 0);
        List<Event> events = new ArrayList<>();
        // a GC of the session before the snapshot's that moved 0x9000.. to 0x6000..
        events.add(new Event(1, 1, 100, new Payload().u32(3).u32(0).u32(0).u32(0).u16(0).u64(0).bytes()));
        events.add(new Event(2, 1, 110, new Payload().u32(0).u32(1).u16(0).u64(0x9000).u64(0x6000).u64(0x100).bytes()));
        // a root reported before the snapshot's GC moved anything names the object where it is (after the first GC)
        events.add(new Event(5, 1, 150, new Payload().u32(0).u32(1).u16(0).u64(0x6010).u8(2).u32(0).u64(0x7f10).bytes()));
        // the snapshot's GC: two heaps' moved ranges (two threads), 0x5000..0x5040 -> 0x3000, 0x6000..0x6100 -> 0x7000
        events.add(new Event(1, 1, 200, new Payload().u32(4).u32(2).u32(1).u32(0).u16(0).u64(0).bytes()));
        events.add(new Event(2, 2, 210, new Payload().u32(0).u32(1).u16(0).u64(0x5000).u64(0x3000).u64(0x40).bytes()));
        events.add(new Event(2, 3, 211, new Payload().u32(1).u32(2).u16(0).u64(0x6000).u64(0x7000).u64(0x100).u64(0x8000).u64(0x8000).u64(0).bytes()));
        // the walk: 0x3000 (was 0x5000), 0x3038 (was 0x5038), 0x3040 (past the range: stayed), 0x7010 (was 0x6010, and 0x9010 before the first GC)
        Payload nodes = new Payload().u32(0).u32(4).u16(0);
        node(nodes, 0x3000, 24, 0xa0, 2);
        node(nodes, 0x3038, 8, 0xa0, 0);
        node(nodes, 0x3040, 24, 0xa0, 0);
        node(nodes, 0x7010, 24, 0xb0, 1);
        events.add(new Event(3, 2, 300, nodes.bytes()));
        events.add(new Event(4, 2, 301, new Payload().u32(0).u32(3).u16(0).u64(0x3040).u32(0).u64(0x7010).u32(1).u64(0x3000).u32(0).bytes()));
        events.add(new Event(5, 2, 302, new Payload().u32(1).u32(1).u16(0).u64(0x7010).u8(2).u32(1).u64(0x7f00).bytes()));
        events.add(new Event(6, 2, 303, new Payload().u32(0).u32(1).u16(0).u64(0x3000).u64(0x3040).u64(0x7f08).bytes()));
        events.add(new Event(7, 2, 304, new Payload().u32(1).u64(1).u16(0).u64(0x9100).u64(0x3000).u64(0xa0).u32(0).utf16("s_x").bytes()));
        // a GC after the walk (a busy process) moves nothing the walk named back
        events.add(new Event(1, 1, 400, new Payload().u32(5).u32(0).u32(0).u32(0).u16(0).u64(0).bytes()));
        events.add(new Event(2, 1, 410, new Payload().u32(0).u32(1).u16(0).u64(0x1000).u64(0x3000).u64(0x100).bytes()));
        GcHeapSnapshot s = GcHeapSnapshot.decode(NettraceReader.read(new ByteArrayInputStream(w.eventBlock(true, events).finish())));
        assertThat(s.relocatedObjects()).isEqualTo(3);
        assertThat(s.movedRanges()).isEqualTo(3 + 1); // the zero-length range is dropped; the GC after the walk counts, undoing nothing
        s.write(dir);
        assertThat(Files.readAllLines(dir.resolve("live-objects.txt"))).containsExactly(GcHeapSnapshot.LIVE_OBJECTS_HEADER,
                "0x3040 24 0xa0 ?",
                "0x5000 24 0xa0 ?",
                "0x5038 8 0xa0 ?",
                "0x9010 24 0xb0 ?");
        assertThat(Files.readAllLines(dir.resolve("refs.txt"))).containsExactly(GcHeapSnapshot.REFS_HEADER,
                "0x5000: 0x3040 0x9010",
                "0x9010: 0x5000");
        assertThat(Files.readAllLines(dir.resolve("roots.txt"))).containsExactly(GcHeapSnapshot.ROOTS_HEADER,
                "ROOT Handle 0x0 0x7f10 0x9010",
                "ROOT Handle 0x1 0x7f00 0x9010",
                GcHeapSnapshot.DEPENDENT_HEADER,
                "DEPENDENT 0x7f08 0x5000 0x3040",
                GcHeapSnapshot.STATIC_HEADER,
                "STATIC 0x9100 0x5000 0xa0 0x0 s_x");
    }

    @Test
    void objectsLeftOutAreInNeitherTheListNorTheReferences(@TempDir Path dir) throws IOException {
        Payload nodes = new Payload().u32(0).u32(2).u16(0);
        node(nodes, 0x10, 24, 0xa, 1);
        node(nodes, 0x28, 24, 0xa, 1);
        byte[] b = new NettraceWriter().metadataBlock(1, P, 18, "", 0).metadataBlock(2, P, 19, "", 0)
                .eventBlock(true, List.of(new Event(1, 1, 5, nodes.bytes()),
                        new Event(2, 1, 6, new Payload().u32(0).u32(2).u16(0).u64(0x28).u32(0).u64(0x10).u32(0).bytes()))).finish();
        GcHeapSnapshot s = GcHeapSnapshot.decode(NettraceReader.read(new ByteArrayInputStream(b)));
        s.write(dir, java.util.Set.of(0x10L));
        assertThat(Files.readAllLines(dir.resolve("live-objects.txt"))).containsExactly(GcHeapSnapshot.LIVE_OBJECTS_HEADER, "0x28 24 0xa ?");
        assertThat(Files.readAllLines(dir.resolve("refs.txt"))).containsExactly(GcHeapSnapshot.REFS_HEADER, "0x28: 0x10");
    }
}
