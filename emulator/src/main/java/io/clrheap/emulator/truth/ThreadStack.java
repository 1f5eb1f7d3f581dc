package io.clrheap.emulator.truth;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * An emulated thread's stack and registers as written: the stack is an anonymous read-write mapping
 * {@code [limit, base)}; its live part is {@code [rsp, base)}; what lies below {@code rsp} is stale (slots of frames that
 * returned), among them {@code staleSlots}, which still hold references to dead objects.
 *
 * @param osId       the thread's operating-system id (its {@link GroundTruth.ThreadInfo#osId()})
 * @param limit      the lowest address of the stack mapping (NT_TIB.StackLimit on Windows)
 * @param base       the highest address of the stack, exclusive (NT_TIB.StackBase on Windows; the mapping's end)
 * @param registers  every register's value; {@link CpuRegister#RSP} lies in {@code [limit, base)}
 * @param staleSlots the slots below {@code rsp} that hold the start of a dead object, ascending
 */
public record ThreadStack(long osId, long limit, long base, Map<CpuRegister, Long> registers, List<Long> staleSlots) {

    public ThreadStack {
        if (registers.size() != CpuRegister.values().length) {
            throw new IllegalArgumentException("a thread's context has " + CpuRegister.values().length + " registers, not " + registers.size());
        }
        registers = Collections.unmodifiableMap(new EnumMap<>(registers));
        staleSlots = List.copyOf(staleSlots);
    }

    public long register(CpuRegister register) {
        return registers.get(register);
    }

    public long rsp() {
        return register(CpuRegister.RSP);
    }
}
