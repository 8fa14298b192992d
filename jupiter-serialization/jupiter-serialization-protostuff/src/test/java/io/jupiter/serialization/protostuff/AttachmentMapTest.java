package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The attachments' map behaves as a {@code HashMap} of the same entries would, order aside, in its fields and array
 * (a few entries) as in the {@code LinkedHashMap} it keeps many in.
 */
class AttachmentMapTest {

    @Test
    void randomChangesLeaveTheSameEntriesAsAHashMap() {
        Random random = new Random(39);
        AttachmentMap map = new AttachmentMap();
        Map<String, String> expected = new HashMap<>();
        for (int step = 0; step < 5_000; step++) {
            String key = "k" + random.nextInt(12);
            switch (random.nextInt(5)) {
                case 0, 1 -> assertThat(map.put(key, "v" + step)).isEqualTo(expected.put(key, "v" + step));
                case 2 -> assertThat(map.remove(key)).isEqualTo(expected.remove(key));
                case 3 -> removeByIterator(map, expected, key);
                default -> assertThat(map.get(key)).isEqualTo(expected.get(key));
            }
            assertThat(map).isEqualTo(expected);
            assertThat(map.hashCode()).isEqualTo(expected.hashCode());
            assertThat(map.size()).isEqualTo(expected.size());
            assertThat(map.containsKey(key)).isEqualTo(expected.containsKey(key));
        }
        map.clear();
        assertThat(map).isEmpty();
    }

    @Test
    void entriesKeepTheirOrderAndCanBeChanged() {
        AttachmentMap map = new AttachmentMap();
        map.put("jupiter.timeout", "300");
        map.put("trace", "abc");
        map.put("tenant", "t1");
        assertThat(map.keySet()).containsExactly("jupiter.timeout", "trace", "tenant");
        map.entrySet().iterator().next().setValue("400");
        assertThat(map.get("jupiter.timeout")).isEqualTo("400");
        assertThat(map.toString()).isEqualTo("{jupiter.timeout=400, trace=abc, tenant=t1}");
        map.put("nothing", null);
        assertThat(map.containsKey("nothing")).isTrue();
        assertThat(map.get("nothing")).isNull();
    }

    @Test
    void manyEntriesKeepTheirOrderOnceKeptHashed() {
        AttachmentMap map = new AttachmentMap();
        Map<String, String> expected = new LinkedHashMap<>();
        for (int i = 0; i < 1_000; i++) {
            assertThat(map.put("k" + i, "v" + i)).isNull();
            expected.put("k" + i, "v" + i);
            assertThat(map).containsExactlyEntriesOf(expected);
        }
        assertThat(map.put("k3", "w")).isEqualTo("v3");
        assertThat(map.get("k3")).isEqualTo("w");
        assertThat(map.remove("k999")).isEqualTo("v999");
        assertThat(map.put(null, "n")).isNull();
        assertThat(map.get(null)).isEqualTo("n");
        assertThat(map).hasSize(1_000);
        map.clear();
        assertThat(map).isEmpty();
        map.put("a", "b");
        assertThat(map).containsExactlyEntriesOf(Map.of("a", "b"));
    }

    @Test
    void viewsAndComparisonsAreThoseOfAMap() {
        for (int n : new int[] {0, 1, 3, AttachmentMap.LINEAR_MAX + 2}) {
            AttachmentMap map = new AttachmentMap();
            Map<String, String> expected = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                map.put("k" + i, "v" + i);
                expected.put("k" + i, "v" + i);
            }
            assertThat(map.isEmpty()).isEqualTo(n == 0);
            assertThat(map.keySet()).containsExactlyElementsOf(expected.keySet());
            assertThat(map.values()).containsExactlyElementsOf(expected.values());
            assertThat(map.toString()).isEqualTo(expected.toString());
            assertThat(map.containsValue("v0")).isEqualTo(n > 0);
            assertThat(map.containsValue("k0")).isFalse();

            map.put(null, null);
            expected.put(null, null);
            assertThat(map.equals(expected)).isTrue();
            assertThat(expected.equals(map)).isTrue();
            assertThat(map.hashCode()).isEqualTo(expected.hashCode());
            assertThat(map.toString()).isEqualTo(expected.toString());
            assertThat(map.containsValue(null)).isTrue();
            Map<String, String> sameSizeNoNullKeys = new TreeMap<>();
            for (int i = 0; i <= n; i++) {
                sameSizeNoNullKeys.put("x" + i, null);
            }
            assertThat(map.equals(sameSizeNoNullKeys)).isFalse(); // its get(null) throws: not equal
            Map<String, String> otherValue = new LinkedHashMap<>(expected);
            otherValue.put(null, "v");
            assertThat(map.equals(otherValue)).isFalse();

            if (n > 1) {
                assertThat(map.keySet().remove("k0")).isTrue();
                assertThat(map.values().remove("v1")).isTrue();
                expected.remove("k0");
                expected.remove("k1");
                assertThat(map).isEqualTo(expected);
                assertThat(map.keySet()).containsExactlyElementsOf(expected.keySet());
            }
            map.values().clear();
            assertThat(map.isEmpty()).isTrue();
            map.putAll(expected);
            assertThat(map.equals(expected)).isTrue();
            map.keySet().clear();
            assertThat(map.size()).isZero();
        }
    }

    private static void removeByIterator(AttachmentMap map, Map<String, String> expected, String key) {
        expected.remove(key);
        for (Iterator<Map.Entry<String, String>> i = map.entrySet().iterator(); i.hasNext(); ) {
            if (i.next().getKey().equals(key)) {
                i.remove();
            }
        }
    }
}
