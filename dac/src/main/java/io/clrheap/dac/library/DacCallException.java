package io.clrheap.dac.library;

import io.clrheap.dac.com.Hresult;

/** A DAC call answered with a failing HRESULT. */
public final class DacCallException extends Exception {

    private final String call;
    private final long argument;
    private final int hresult;

    public DacCallException(String call, long argument, int hresult) {
        super(String.format("%s(0x%x) failed: %s", call, argument, Hresult.describe(hresult)));
        this.call = call;
        this.argument = argument;
        this.hresult = hresult;
    }

    public String call() {
        return call;
    }

    public long argument() {
        return argument;
    }

    public int hresult() {
        return hresult;
    }
}
