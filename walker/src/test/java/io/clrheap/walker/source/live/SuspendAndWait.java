package io.clrheap.walker.source.live;

/** Suspends the process given as argument, prints {@code SUSPENDED} and waits to be interrupted (SIGINT/SIGTERM). */
public final class SuspendAndWait {

    public static void main(String[] args) throws InterruptedException {
        ProcessSuspension s = ProcessSuspension.suspend(Integer.parseInt(args[0]));
        System.out.println("SUSPENDED " + s.threads().size());
        System.out.flush();
        Thread.sleep(120_000);
    }
}
