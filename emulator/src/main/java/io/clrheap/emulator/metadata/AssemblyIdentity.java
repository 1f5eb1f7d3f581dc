package io.clrheap.emulator.metadata;

/**
 * What the Module and Assembly tables (ECMA-335 II.22.30, II.22.2) say of an assembly: the module's file name, the
 * assembly's simple name (what the runtime prints after a type in a generic argument, {@code [System.String,
 * System.Private.CoreLib]}) and its version.
 *
 * @param simpleName the assembly's name, e.g. {@code System.Private.CoreLib}
 * @param moduleName the module's file name, e.g. {@code System.Private.CoreLib.dll}
 * @param major      the version's parts, u16 each
 * @param minor      the version's minor part
 * @param build      the version's build part
 * @param revision   the version's revision part
 */
public record AssemblyIdentity(String simpleName, String moduleName, int major, int minor, int build, int revision) {

    public AssemblyIdentity {
        for (int v : new int[] {major, minor, build, revision}) {
            if (v < 0 || v > 0xffff) {
                throw new IllegalArgumentException("an assembly version part is a u16, not " + v);
            }
        }
    }
}
