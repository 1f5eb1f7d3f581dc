package io.clrheap.dac.com;

import java.util.Map;

/** The HRESULTs the DAC and its data targets exchange (winerror.h, corerror.h), and how to print one. */
public final class Hresult {

    public static final int S_OK = 0;
    public static final int S_FALSE = 1;
    public static final int E_NOTIMPL = 0x80004001;
    public static final int E_NOINTERFACE = 0x80004002;
    public static final int E_POINTER = 0x80004003;
    public static final int E_FAIL = 0x80004005;
    public static final int E_INVALIDARG = 0x80070057;
    /** The DAC found no {@code g_dacTable} (or the runtime module's headers) in target memory. */
    public static final int CORDBG_E_MISSING_DEBUGGER_EXPORTS = 0x80131c4f;
    /** A DAC read of target memory failed. */
    public static final int CORDBG_E_READVIRTUAL_FAILURE = 0x80131c49;

    private static final Map<Integer, String> NAMES = Map.of(
            S_OK, "S_OK", S_FALSE, "S_FALSE", E_NOTIMPL, "E_NOTIMPL", E_NOINTERFACE, "E_NOINTERFACE",
            E_POINTER, "E_POINTER", E_FAIL, "E_FAIL", E_INVALIDARG, "E_INVALIDARG",
            CORDBG_E_MISSING_DEBUGGER_EXPORTS, "CORDBG_E_MISSING_DEBUGGER_EXPORTS",
            CORDBG_E_READVIRTUAL_FAILURE, "CORDBG_E_READVIRTUAL_FAILURE");

    private Hresult() {
    }

    public static boolean failed(int hr) {
        return hr < 0;
    }

    /** e.g. {@code 0x80070057 (E_INVALIDARG)}. */
    public static String describe(int hr) {
        String name = NAMES.get(hr);
        return String.format("0x%08x", hr) + (name == null ? "" : " (" + name + ")");
    }
}
