package io.clrheap.walker.runtime.derive;

import io.clrheap.memory.Memory;
import io.clrheap.walker.runtime.LocatedRuntime;
import java.util.Optional;

/**
 * A runtime build's identity as its own module says it: the sccsid string {@code @(#)Version 10.0.326.7603 @Commit: c2435c3e...}
 * in the module's data (libcoreclr.so, or the single-file host), else {@code DotNetRuntimeInfo}'s RuntimeVersion (no
 * commit). The file version's third part is the patch times 100 plus a two-digit number: 9.0.725.x is 9.0.7.
 *
 * @param version     {@code major.minor.patch}, e.g. {@code 10.0.3}
 * @param fileVersion the four-part file version, e.g. {@code 10.0.326.7603}
 * @param commit      the dotnet/runtime commit, empty when only DotNetRuntimeInfo told the version
 * @param source      where it was read, with the address
 */
public record RuntimeIdentity(String version, String fileVersion, String commit, String source) {

    /**
     * The identity the opener read when it located the runtime (the sccsid string in the module's writable data, else
     * DotNetRuntimeInfo, else the runtime folder's name: {@link io.clrheap.walker.runtime.IdentityReader}); empty when
     * the dump holds none of them.
     */
    public static Optional<RuntimeIdentity> read(Memory memory, LocatedRuntime runtime) {
        return runtime.identity().map(found -> new RuntimeIdentity(found.identity().version(), found.identity().fileVersion(),
                found.identity().commit(), found.source()));
    }

    /** The major version, e.g. 10. */
    public int major() {
        return Integer.parseInt(version.substring(0, version.indexOf('.')));
    }
}
