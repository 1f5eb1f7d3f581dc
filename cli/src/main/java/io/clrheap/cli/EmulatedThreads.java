package io.clrheap.cli;

import io.clrheap.emulator.truth.CpuRegister;
import io.clrheap.emulator.truth.ThreadStack;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.Register;
import io.clrheap.walker.source.RegisterSet;
import io.clrheap.walker.source.ThreadSource;
import java.util.List;

/**
 * An emulated process's threads as the walker reads a dump's: each thread's OS id, registers and stack base, from the
 * emulator's {@link ThreadStack}s (what the dump writers write into NT_PRSTATUS, the minidump's CONTEXT and TEB, and a
 * bundle's manifest), so that {@code --emulate} scans the same stacks a dump of the process holds. The registers are
 * matched by name: the emulator and the walker each keep their own list.
 */
final class EmulatedThreads implements ThreadSource {

    private final List<OsThread> threads;

    EmulatedThreads(List<ThreadStack> stacks) {
        this.threads = stacks.stream().map(EmulatedThreads::osThread).toList();
    }

    private static OsThread osThread(ThreadStack stack) {
        RegisterSet.Builder registers = new RegisterSet.Builder();
        for (Register r : Register.values()) {
            registers.set(r, stack.register(CpuRegister.valueOf(r.name())));
        }
        return new OsThread(stack.osId(), registers.build(), stack.base());
    }

    @Override
    public List<OsThread> osThreads() {
        return threads;
    }
}
