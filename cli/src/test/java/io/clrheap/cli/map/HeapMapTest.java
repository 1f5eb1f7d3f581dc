package io.clrheap.cli.map;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.map.AnswerKeyFiles.ObjectRow;
import io.clrheap.cli.map.AnswerKeyFiles.RegionRow;
import io.clrheap.cli.map.AnswerKeyFiles.StatRow;
import io.clrheap.walker.map.Buckets;
import io.clrheap.walker.map.HeapMap;
import io.clrheap.walker.map.MapContext;
import io.clrheap.walker.map.MapLimits;
import io.clrheap.walker.map.MapRegion;
import io.clrheap.walker.map.MapType;
import io.clrheap.walker.map.RegionObjects;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HeapMap} of the every-edge fixture, checked against its answer key. */
class HeapMapTest {

    @TempDir
    static Path dir;

    static MapFixture fixture;
    static HeapMap map;
    static List<ObjectRow> objects;

    @BeforeAll
    static void generate() throws Exception {
        fixture = MapFixture.generate("every-edge", dir);
        map = fixture.map(MapLimits.DEFAULT);
        objects = AnswerKeyFiles.objects(fixture.answer);
    }

    @Test
    void theRegionsAreTheAnswerKeysRegionsInAddressOrder() throws Exception {
        List<RegionRow> found = map.regions().stream().map(r -> new RegionRow(r.region().heap(), r.region().kind().id(),
                r.region().descriptor(), r.region().mem(), r.region().end(), r.region().reserved())).toList();
        assertThat(found).isEqualTo(AnswerKeyFiles.regions(fixture.answer));
    }

    @Test
    void eachRegionHoldsTheAnswerKeysObjectsAndBytes() {
        for (MapRegion r : map.regions()) {
            List<ObjectRow> in = AnswerKeyFiles.objectsIn(objects, r.region().mem(), r.region().end());
            assertThat(r.objects()).as(r.region().toString()).isEqualTo(in.size());
            assertThat(r.bytes()).as(r.region().toString()).isEqualTo(in.stream().mapToLong(ObjectRow::size).sum());
        }
        assertThat(map.objects()).isEqualTo(objects.size());
    }

    @Test
    void theBucketsOfARegionAddUpToItsObjectsAndBytes() {
        for (MapRegion r : map.regions()) {
            Buckets b = r.buckets();
            long count = 0;
            long bytes = 0;
            long named = 0;
            for (int i = 0; i < b.count(); i++) {
                count += b.objects(i);
                bytes += b.bytes(i);
                assertThat(b.bytes(i)).isLessThanOrEqualTo(b.bucketBytes());
                for (int e = 0; e < b.entries(i); e++) {
                    named += b.entryBytes(i, e);
                }
            }
            assertThat(count).as(r.region().toString()).isEqualTo(r.objects());
            assertThat(bytes).as(r.region().toString()).isEqualTo(r.bytes());
            assertThat(named).as("the types of the buckets of " + r.region()).isEqualTo(r.bytes());
            assertThat(b.count()).isLessThanOrEqualTo(MapLimits.DEFAULT.bucketsPerRegion());
            assertThat((long) b.count() * b.bucketBytes()).isGreaterThanOrEqualTo(r.region().end() - r.region().mem());
        }
    }

    @Test
    void aBucketKeepsItsLargestTypesFirstAndTheRestAsOther() throws Exception {
        HeapMap two = fixture.map(new MapLimits(16, 256, 2, 50_000, 1_000_000));
        boolean sawOther = false;
        for (MapRegion r : two.regions()) {
            Buckets b = r.buckets();
            for (int i = 0; i < b.count(); i++) {
                assertThat(b.entries(i)).isLessThanOrEqualTo(3);
                for (int e = 1; e < b.entries(i); e++) {
                    if (b.entryType(i, e) == Buckets.OTHER) {
                        sawOther = true;
                        assertThat(e).isEqualTo(b.entries(i) - 1);
                    } else {
                        assertThat(b.entryBytes(i, e)).isLessThanOrEqualTo(b.entryBytes(i, e - 1));
                    }
                }
            }
        }
        assertThat(sawOther).as("every-edge's 16 buckets a region mix more than two types").isTrue();
    }

    @Test
    void theLegendIsTheDumpheapStatRowsByBytesFreeIncludedAndGrey() throws Exception {
        List<StatRow> stat = AnswerKeyFiles.stat(fixture.answer.resolve("dumpheap-stat.txt"));
        List<StatRow> legend = map.types().stream().map(t -> new StatRow(t.methodTable(), t.count(), t.bytes(), t.name())).toList();
        assertThat(legend).containsExactlyInAnyOrderElementsOf(stat);
        for (int i = 1; i < map.types().size(); i++) {
            assertThat(map.types().get(i).bytes()).isLessThanOrEqualTo(map.types().get(i - 1).bytes());
            assertThat(map.types().get(i).index()).isEqualTo(i);
        }
        MapType free = map.freeType().orElseThrow();
        assertThat(free.name()).isEqualTo("Free");
        assertThat(free.colour()).isEqualTo("#b4b4b4");
        assertThat(map.types().stream().filter(t -> !t.free()).map(MapType::colour)).doesNotHaveDuplicates().doesNotContain(free.colour());
    }

    @Test
    void smallRegionsKeepEveryObjectAsTheAnswerKeyHasIt() {
        for (MapRegion r : map.regions()) {
            RegionObjects kept = r.detail().orElseThrow();
            List<ObjectRow> in = AnswerKeyFiles.objectsIn(objects, r.region().mem(), r.region().end());
            List<String> found = new ArrayList<>();
            for (int i = 0; i < kept.count(); i++) {
                MapType t = map.types().get(kept.type(i));
                found.add(String.format("0x%x 0x%x %d %s", r.region().mem() + kept.offset(i), t.methodTable(), kept.size(i), t.name()));
            }
            assertThat(found).isEqualTo(in.stream().map(o -> String.format("0x%x 0x%x %d %s", o.address(), o.mt(), o.size(), o.type())).toList());
        }
        assertThat(map.detailedObjects()).isEqualTo(objects.size());
        assertThat(map.aggregatedRegions()).isZero();
    }

    @Test
    void aRegionWithMoreObjectsThanTheCapIsKeptAsBucketsOnly() throws Exception {
        HeapMap capped = fixture.map(new MapLimits(1024, 256, 4, 100, 1_000_000));
        for (MapRegion r : capped.regions()) {
            assertThat(r.detail().isPresent()).as(r.region() + " with " + r.objects() + " objects").isEqualTo(r.objects() <= 100);
        }
        assertThat(capped.aggregatedRegions()).isPositive();
        assertThat(capped.detailedObjects()).isEqualTo(capped.regions().stream().filter(r -> r.objects() <= 100).mapToLong(MapRegion::objects).sum());
    }

    @Test
    void theObjectBudgetIsSpentOnRegionsInAddressOrder() throws Exception {
        long budget = 3000;
        HeapMap capped = fixture.map(MapLimits.DEFAULT.withMaxObjects(budget));
        long spent = 0;
        for (MapRegion r : capped.regions()) {
            boolean fits = r.objects() <= capped.limits().maxRegionObjects() && spent + r.objects() <= budget;
            assertThat(r.detail().isPresent()).as(r.region().toString()).isEqualTo(fits);
            spent += fits ? r.objects() : 0;
        }
        assertThat(capped.detailedObjects()).isEqualTo(spent).isLessThanOrEqualTo(budget);
        assertThat(capped.aggregatedRegions()).isPositive();
    }

    @Test
    void allocationContextsAreInSmallObjectRegionsAndHoldNoObject() {
        long contexts = 0;
        for (MapRegion r : map.regions()) {
            for (MapContext c : r.contexts()) {
                contexts++;
                assertThat(r.region().kind().smallObjectHeap()).isTrue();
                assertThat(objects).noneMatch(o -> Long.compareUnsigned(o.address() - c.start(), c.end() - c.start()) < 0);
            }
        }
        assertThat(contexts).as("every-edge has live allocation contexts").isPositive();
    }

    @Test
    void theSameHeapGivesTheSameMapWhateverTheThreads() throws Exception {
        HeapMap again = fixture.map(MapLimits.DEFAULT, null, 1);
        assertThat(again.types()).isEqualTo(map.types());
        for (int i = 0; i < map.regions().size(); i++) {
            Buckets a = map.regions().get(i).buckets();
            Buckets b = again.regions().get(i).buckets();
            for (int k = 0; k < a.count(); k++) {
                assertThat(b.entries(k)).isEqualTo(a.entries(k));
                for (int e = 0; e < a.entries(k); e++) {
                    assertThat(b.entryType(k, e)).isEqualTo(a.entryType(k, e));
                }
            }
        }
    }
}
