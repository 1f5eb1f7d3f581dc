package io.clrheap.golden.fuzz;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * A bounded, seeded mutation campaign against one {@link FuzzTarget}: the seeds are run once each (warm-up, with a
 * generous limit, and they must pass), then parents are drawn from the pool, mutated and run under the 1 s limit
 * until the time budget is spent. Guidance is a cheap signal instead of code coverage: an input whose outcome
 * signature (the verdict, the refusal's message with numbers blanked, or the problem kinds a walk reported) was not
 * seen before reaches a new path through the reader's checks, so it joins the pool and is mutated further.
 *
 * <p>Bounded by {@code CLRHEAP_FUZZ_SECONDS} (environment) or {@code -Dclrheap.fuzz.seconds} (default
 * {@value #DEFAULT_SECONDS} s per target), seeded by {@code CLRHEAP_FUZZ_SEED} / {@code -Dclrheap.fuzz.seed} (default
 * {@value #DEFAULT_SEED}): CI runs the same input sequence every time; only how far it gets depends on the machine.
 * Failing inputs are written to {@code target/fuzz-findings/TARGET/}, xz-compressed, ready to become regressions.
 */
final class FuzzCampaign {

    static final int DEFAULT_SECONDS = 20;
    static final long DEFAULT_SEED = 20261123L;
    /** Kept mutated inputs besides the seeds: inputs are up to a few MB, the pool must stay well inside the heap. */
    private static final int POOL_LIMIT = 48;
    private static final int MAX_FINDINGS = 10;

    record Report(long executions, int signatures, int pool, Map<String, String> findings) {
    }

    private FuzzCampaign() {
    }

    static Duration budget() {
        return Duration.ofSeconds(Long.parseLong(setting("CLRHEAP_FUZZ_SECONDS", "clrheap.fuzz.seconds", String.valueOf(DEFAULT_SECONDS))));
    }

    static long seed() {
        return Long.parseLong(setting("CLRHEAP_FUZZ_SEED", "clrheap.fuzz.seed", String.valueOf(DEFAULT_SEED)));
    }

    private static String setting(String env, String property, String fallback) {
        String p = System.getProperty(property);
        if (p != null && !p.isBlank()) {
            return p.trim();
        }
        String e = System.getenv(env);
        return e != null && !e.isBlank() ? e.trim() : fallback;
    }

    /**
     * Runs the campaign.
     *
     * @param mutate parent → child, drawing from the random source
     */
    static Report run(FuzzTarget target, BiFunction<byte[], SplittableRandom, byte[]> mutate) {
        List<FuzzCorpus.Input> seeds = FuzzCorpus.seeds(target.name());
        if (seeds.isEmpty()) {
            throw new IllegalStateException("no seeds in " + FuzzCorpus.root().resolve(target.name()).toAbsolutePath());
        }
        SplittableRandom random = new SplittableRandom(seed() ^ target.name().hashCode());
        Set<String> signatures = new HashSet<>();
        List<byte[]> pool = new ArrayList<>();
        Map<String, String> findings = new LinkedHashMap<>();
        long executions = 0;
        try (FuzzRunner runner = new FuzzRunner(target)) {
            for (FuzzCorpus.Input seed : seeds) {
                FuzzRunner.Outcome o = runner.run(seed.bytes(), Duration.ofSeconds(60));
                executions++;
                if (o.verdict() == FuzzRunner.Verdict.FAILED) {
                    findings.put("seed " + seed.name(), o.detail());
                }
                signatures.add(o.signature());
                pool.add(seed.bytes());
            }
            long deadline = System.nanoTime() + budget().toNanos();
            while (System.nanoTime() < deadline && findings.size() < MAX_FINDINGS) {
                byte[] child = mutate.apply(pool.get(random.nextInt(pool.size())), random);
                FuzzRunner.Outcome o = runner.run(child);
                executions++;
                if (o.verdict() == FuzzRunner.Verdict.FAILED) {
                    if (!findings.containsKey(o.signature())) {
                        findings.put(o.signature(), o.detail() + "\n    input: " + save(target.name(), findings.size(), child));
                        if (o.thrown() != null) {
                            o.thrown().printStackTrace(System.out);
                        }
                    }
                } else if (signatures.add(o.signature())) {
                    if (pool.size() >= seeds.size() + POOL_LIMIT) {
                        pool.remove(seeds.size() + random.nextInt(POOL_LIMIT)); // seeds stay
                    }
                    pool.add(child);
                }
            }
        }
        Report r = new Report(executions, signatures.size(), pool.size(), findings);
        System.out.printf("fuzz %s: %d inputs in %d s (seed %d), %d distinct outcomes, pool %d, %d findings%n",
                target.name(), executions, budget().toSeconds(), seed(), signatures.size(), pool.size(), findings.size());
        return r;
    }

    /**
     * Replays {@code fuzz-corpus/regressions/TARGET/} under the 1 s limit, after one warm-up run of each seed; returns
     * each input that fails again, with why.
     */
    static Map<String, String> replayRegressions(FuzzTarget target) {
        Map<String, String> failures = new LinkedHashMap<>();
        try (FuzzRunner runner = new FuzzRunner(target)) {
            for (FuzzCorpus.Input seed : FuzzCorpus.seeds(target.name())) {
                runner.run(seed.bytes(), Duration.ofSeconds(60));
            }
            for (FuzzCorpus.Input input : FuzzCorpus.regressions(target.name())) {
                FuzzRunner.Outcome o = runner.run(input.bytes());
                if (o.verdict() == FuzzRunner.Verdict.FAILED) {
                    failures.put(input.name(), o.detail());
                }
            }
        }
        return failures;
    }

    /** Writes a failing input under {@code target/fuzz-findings/}, compressed; returns where. */
    private static Path save(String target, int index, byte[] input) {
        try {
            Path dir = Path.of("target", "fuzz-findings", target);
            Files.createDirectories(dir);
            Path file = dir.resolve(String.format("finding-%02d.xz", index));
            try (OutputStream out = new XZOutputStream(Files.newOutputStream(file), new LZMA2Options(6))) {
                out.write(input);
            }
            return file.toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
