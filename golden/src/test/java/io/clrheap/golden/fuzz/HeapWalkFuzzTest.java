package io.clrheap.golden.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.golden.real.PatchedMemory;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SubHeap;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes discovery and the walker over mutated heap memory: a seed core of the corpus with words of its region
 * descriptors ({@code heap_segment}), generation tables, GcDacVars, allocation contexts, objects and MethodTables
 * overwritten, as {@code walk --verify} would meet in a damaged dump. The runtime is then found (or refused with a
 * TargetException), the heap discovered and walked; discovery and the walk report problems and must never throw,
 * loop or take more than 1 s.
 *
 * <p>An input is text: {@code fixture NAME} (a core of {@code fuzz-corpus/elf/}) and one patch a line,
 * {@code 0xADDRESS WIDTH 0xVALUE} (width 4 or 8), so that a regression input reads as what was broken.
 */
class HeapWalkFuzzTest {

    /** A seed core opened once, with the addresses worth overwriting found by a clean discovery and walk. */
    private record Fixture(ElfCore core, Target clean, List<Long> sites, List<Long> addresses) {
    }

    private static final Map<String, Fixture> FIXTURES = new ConcurrentHashMap<>();

    private static Fixture fixture(String name) {
        return FIXTURES.computeIfAbsent(name, n -> {
            try {
                byte[] core = FuzzCorpus.read(FuzzCorpus.root().resolve("elf").resolve(n));
                ElfCore opened = ElfCore.open(InputFiles.write(core, ".core"));
                Target t = new TargetOpener(WalkAfterOpen.PROFILES).open(opened, opened.mappedFiles(), Optional.empty());
                DiscoveredHeap heap = new HeapDiscovery(t).discover();
                TreeSet<Long> sites = new TreeSet<>();
                TreeSet<Long> addresses = new TreeSet<>();
                long dacVars = t.globalPointer("g_gcDacGlobals");
                for (int k = 0; k < 40; k++) {
                    sites.add(dacVars + 8L * k);
                }
                for (SubHeap h : heap.heaps()) {
                    for (int k = 0; k < 80; k++) {
                        sites.add(h.generationTable() + 8L * k);
                    }
                    for (Region r : h.regions()) {
                        for (int k = 0; k < 16; k++) {
                            sites.add(r.descriptor() + 8L * k);
                        }
                        addresses.addAll(List.of(r.descriptor(), r.mem(), r.end(), r.reserved()));
                    }
                }
                for (AllocContextInfo c : heap.contexts()) {
                    sites.add(c.location());
                    sites.add(c.location() + 8);
                }
                new HeapWalker(t.memory(), WalkRules.of(t.layout()), heap, WalkLimits.DEFAULT).walk((address, mt, size, region) -> {
                    if (sites.size() < 4000) {
                        sites.addAll(List.of(address, address + 8, mt, mt + 4, mt + 8, mt + 16, mt + 24));
                        addresses.addAll(List.of(address, mt));
                    }
                });
                return new Fixture(opened, t, List.copyOf(sites), List.copyOf(addresses));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (TargetException e) {
                throw new IllegalStateException("seed " + n + " does not open", e);
            }
        });
    }

    private record Patch(long address, int width, long value) {
    }

    private record Input(String fixture, List<Patch> patches) {
        static Input parse(byte[] bytes) {
            List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
            List<Patch> patches = new ArrayList<>();
            for (String l : lines.subList(1, lines.size())) {
                String[] f = l.trim().split("\\s+");
                patches.add(new Patch(Long.parseUnsignedLong(f[0].substring(2), 16), Integer.parseInt(f[1]), Long.parseUnsignedLong(f[2].substring(2), 16)));
            }
            return new Input(lines.get(0).substring("fixture ".length()).trim(), patches);
        }

        byte[] text() {
            StringBuilder s = new StringBuilder("fixture ").append(fixture).append('\n');
            patches.forEach(p -> s.append(String.format("0x%x %d 0x%x%n", p.address(), p.width(), p.value())));
            return s.toString().getBytes(StandardCharsets.UTF_8);
        }
    }

    static final FuzzTarget TARGET = new FuzzTarget() {
        @Override
        public String name() {
            return "heap";
        }

        @Override
        public String run(byte[] bytes) {
            Input input = Input.parse(bytes);
            Fixture f = fixture(input.fixture());
            PatchedMemory memory = new PatchedMemory(f.core());
            for (Patch p : input.patches()) {
                if (p.width() == 4) {
                    memory.putInt(p.address(), (int) p.value());
                } else {
                    memory.putLong(p.address(), p.value());
                }
            }
            // Opening identifies the runtime from the module's image (about 50 ms a time); the patches are in the heap's
            // structures, so two inputs in three keep the clean fixture's identification and only discover and walk
            // the patched memory. The opener's own checks of mutated bytes are the ELF, minidump and bundle targets'.
            if (input.patches().size() % 3 != 0) {
                Target t = f.clean();
                return WalkAfterOpen.walk(() -> new Target(memory, t.module(), t.build(), t.version(), t.versionSource(), t.layout(), t.views(), t.identity(), t.layoutSource()));
            }
            return WalkAfterOpen.walk(() -> new TargetOpener(WalkAfterOpen.PROFILES).open(memory, f.core().mappedFiles(), Optional.empty()));
        }

        @Override
        public String refusal(Throwable thrown) {
            return "discovery and the walk report problems; they throw nothing";
        }
    };

    /** The parent with one to three more words overwritten: at a structure's field, with a boundary value or another structure's address. */
    static byte[] mutate(byte[] parent, SplittableRandom random) {
        Input input = Input.parse(parent);
        Fixture f = fixture(input.fixture());
        List<Patch> patches = new ArrayList<>(input.patches());
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            long site = f.sites().get(random.nextInt(f.sites().size()));
            int width = random.nextInt(4) == 0 ? 4 : 8;
            long current;
            try {
                current = width == 4 ? f.core().readInt(site) : f.core().readLong(site);
            } catch (RuntimeException e) {
                current = 0;
            }
            long other = f.addresses().get(random.nextInt(f.addresses().size()));
            long value = switch (random.nextInt(4)) {
                case 0 -> other;
                case 1 -> current + 8L * random.nextInt(-4, 5);
                default -> ByteMutator.boundary(random, 0x1000, width, current, other);
            };
            patches.add(new Patch(site, width, value));
        }
        if (patches.size() > 12) { // keep inputs small: forget the oldest patches
            patches = new ArrayList<>(patches.subList(patches.size() - 12, patches.size()));
        }
        return new Input(input.fixture(), patches).text();
    }

    @Test
    void everyRegressionInputIsWalkedWithoutAnException() {
        assertThat(FuzzCampaign.replayRegressions(TARGET)).isEmpty();
    }

    @Test
    void mutatedHeapsAreDiscoveredAndWalkedWithinASecondEach() {
        FuzzCampaign.Report report = FuzzCampaign.run(TARGET, HeapWalkFuzzTest::mutate);
        assertThat(report.findings()).as("inputs that failed (written under target/fuzz-findings/heap)").isEmpty();
    }
}
