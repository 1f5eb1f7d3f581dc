package io.clrheap.cli;

import java.lang.management.ManagementFactory;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The main class of the small jar {@link LauncherAotCacheTest} puts where the launcher looks for the CLI's jar: prints
 * its arguments and whether the JVM was given the start-up cache. {@code aot-training} (the launcher's training run)
 * loads a few classes, or fails when the environment has {@code CLRHEAP_TEST_FAIL_TRAINING}, or first sleeps 3 s with
 * {@code CLRHEAP_TEST_SLOW_TRAINING}.
 */
public final class LauncherFakeMain {

    private LauncherFakeMain() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("aot-training")) {
            if (System.getenv("CLRHEAP_TEST_FAIL_TRAINING") != null) {
                System.err.println("training fails, as asked");
                System.exit(1);
            }
            if (System.getenv("CLRHEAP_TEST_SLOW_TRAINING") != null) {
                try {
                    Thread.sleep(3000); // long enough for the test to stop the launcher mid-training
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            ConcurrentHashMap<String, Integer> m = new ConcurrentHashMap<>();
            for (int i = 0; i < 1000; i++) {
                m.merge(Integer.toString(i % 7), i, Integer::sum);
            }
            System.out.println("trained " + m.size());
            return;
        }
        boolean cache = ManagementFactory.getRuntimeMXBean().getInputArguments().stream().anyMatch(a -> a.startsWith("-XX:AOTCache="));
        System.out.println("main " + String.join(" ", args) + " aot=" + (cache ? "yes" : "no"));
    }
}
