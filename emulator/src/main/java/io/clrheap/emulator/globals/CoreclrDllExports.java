package io.clrheap.emulator.globals;

import io.clrheap.emulator.module.ModuleImageBuilder;
import io.clrheap.layout.RuntimeVersion;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The exports of the real Windows {@code coreclr.dll} of a runtime version, which the emulated one carries besides what
 * clrheap's readers find the runtime by. Source: the module definition file the Windows build links coreclr.dll with,
 * {@code dotnet/runtime:src/coreclr/dlls/mscoree/mscorwks_ntdef.src} (preprocessed into {@code coreclr.def} by
 * {@code src/coreclr/dlls/mscoree/coreclr/CMakeLists.txt}); the versions read are in docs/reference/dump-formats.md
 * section 3.9:
 * <ul>
 *   <li>every version: {@code GetCLRRuntimeHost}; {@code g_CLREngineMetrics @2 data} (dbgshim finds it by that
 *       ordinal); {@code CLRJitAttachState @3 data}; the hosting API {@code coreclr_create_delegate},
 *       {@code coreclr_execute_assembly}, {@code coreclr_initialize}, {@code coreclr_set_error_writer} (added by
 *       dotnet/runtime#78790, merged for .NET 8), {@code coreclr_shutdown}, {@code coreclr_shutdown_2}; and
 *       {@code MetaDataGetDispenser} (for profilers);</li>
 *   <li>.NET 9 on: {@code DotNetRuntimeContractDescriptor} ("; cDAC contract descriptor"), which
 *       {@link RuntimeGlobals} exports with the descriptor it points at.</li>
 * </ul>
 * Not in that file, but exported all the same: {@code g_dacTable}, by a linker directive of
 * {@code src/coreclr/debug/ee/dactable.cpp} ({@code #pragma comment(linker, "/EXPORT:g_dacTable=?s_dacGlobals@_DacGlobals@@0U1@B")},
 * .NET 7 on: dotnet/runtime#68065; before, the table was the resource {@code COREXTERNALDATAACCESSRESOURCE}), which
 * {@link RuntimeGlobals} exports with the table. Not exported by the real coreclr.dll, nor by the emulated one:
 * {@code DotNetRuntimeInfo} (runtimeinfo.cpp exports it under {@code HOST_UNIX} only; singlefilehost.def exports it
 * {@code @4}). docs/reference/windows.md section 6.
 *
 * <p>Functions point at a stub each in .text ({@code mov eax, E_NOTIMPL; ret}: every one of them returns an HRESULT,
 * and nothing in an emulated process calls them); data at initialized variables in .data: {@code g_CLREngineMetrics}
 * is {@code {sizeof(CLR_ENGINE_METRICS), CorDebugVersion_4_0, &g_hContinueStartupEvent}} with the event handle
 * {@code INVALID_HANDLE_VALUE}, as debugger.cpp initializes them; {@code CLRJitAttachState} a LONG 0.
 */
final class CoreclrDllExports {

    /** What an export is: code, or a variable. */
    enum Kind { FUNCTION, DATA }

    /** One export of the real module definition file: its name, kind and the ordinal it fixes (0: none). */
    record Export(String name, Kind kind, int ordinal) {
    }

    private static final List<Export> EVERY_VERSION = List.of(
            new Export("GetCLRRuntimeHost", Kind.FUNCTION, 0),
            new Export("g_CLREngineMetrics", Kind.DATA, 2),
            new Export("CLRJitAttachState", Kind.DATA, 3),
            new Export("coreclr_create_delegate", Kind.FUNCTION, 0),
            new Export("coreclr_execute_assembly", Kind.FUNCTION, 0),
            new Export("coreclr_initialize", Kind.FUNCTION, 0),
            new Export("coreclr_set_error_writer", Kind.FUNCTION, 0),
            new Export("coreclr_shutdown", Kind.FUNCTION, 0),
            new Export("coreclr_shutdown_2", Kind.FUNCTION, 0),
            new Export("MetaDataGetDispenser", Kind.FUNCTION, 0));
    private static final Export CONTRACT_DESCRIPTOR = new Export("DotNetRuntimeContractDescriptor", Kind.DATA, 0);

    /** {@code mov eax, 0x80004001 (E_NOTIMPL); ret}. */
    private static final byte[] STUB = {(byte) 0xb8, 0x01, 0x40, 0x00, (byte) 0x80, (byte) 0xc3};
    /** sizeof(CLR_ENGINE_METRICS) on x64: DWORD cbSize, DWORD dwDbgVersion, HANDLE* phContinueStartupEvent. */
    private static final int ENGINE_METRICS_SIZE = 16;
    /** CorDebugVersion_4_0 (cordebug.idl). */
    private static final int COR_DEBUG_VERSION_4_0 = 4;

    private CoreclrDllExports() {
    }

    /** The real coreclr.dll's exports of {@code version}. */
    static List<Export> of(RuntimeVersion version) {
        List<Export> all = new ArrayList<>(EVERY_VERSION);
        if (version != RuntimeVersion.NET8) {
            all.add(CONTRACT_DESCRIPTOR);
        }
        return List.copyOf(all);
    }

    /**
     * Adds to {@code module} each export of {@code version}'s real set that {@code exported} (what the module exports
     * already) lacks: a stub for a function, its variable for data.
     *
     * @throws IllegalStateException when a data export of the real set is neither exported already nor one this class makes
     */
    static void addTo(ModuleImageBuilder module, RuntimeVersion version, Set<String> exported) {
        for (Export e : of(version)) {
            if (exported.contains(e.name())) {
                continue;
            }
            long address = switch (e.kind()) {
                case FUNCTION -> module.initializedText(STUB, 16);
                case DATA -> variable(module, e.name());
            };
            module.export(e.name(), address, e.kind() == Kind.FUNCTION ? STUB.length : 8, e.ordinal());
        }
    }

    private static long variable(ModuleImageBuilder module, String name) {
        return switch (name) {
            case "g_CLREngineMetrics" -> {
                long event = module.initializedData(le(8).putLong(-1L).array(), 8); // g_hContinueStartupEvent = INVALID_HANDLE_VALUE
                yield module.initializedData(le(ENGINE_METRICS_SIZE).putInt(ENGINE_METRICS_SIZE).putInt(COR_DEBUG_VERSION_4_0)
                        .putLong(event).array(), 8);
            }
            case "CLRJitAttachState" -> module.initializedData(new byte[4], 4);
            default -> throw new IllegalStateException("the real coreclr.dll exports " + name + ", and nothing in the emulated one makes it");
        };
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
}
