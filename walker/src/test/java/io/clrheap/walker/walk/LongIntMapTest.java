package io.clrheap.walker.walk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongIntMapTest {

    @Test
    void behavesLikeAMapThroughGrowth() {
        LongIntMap map = new LongIntMap(16, Integer.MAX_VALUE);
        Map<Long, Integer> reference = new HashMap<>();
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            long key = (random.nextLong() & 0xffff_ffff_fff8L) | 8;
            map.put(key, i);
            reference.put(key, i);
        }
        reference.forEach((k, v) -> assertThat(map.get(k, -1)).isEqualTo(v));
        assertThat(map.size()).isEqualTo(reference.size());
        assertThat(map.get(16, -7)).isEqualTo(reference.getOrDefault(16L, -7));
    }

    @Test
    void refusesNewKeysAtItsCap() {
        LongIntMap map = new LongIntMap(16, 3);
        assertThat(map.put(1, 1)).isTrue();
        assertThat(map.put(2, 2)).isTrue();
        assertThat(map.put(3, 3)).isTrue();
        assertThat(map.put(4, 4)).isFalse();
        assertThat(map.put(3, 33)).isTrue();
        assertThat(map.get(4, -1)).isEqualTo(-1);
        assertThat(map.get(3, -1)).isEqualTo(33);
    }
}
