package io.clrheap.layout;

/**
 * One released build clrheap has the layout of, e.g. 9.0.7: its identity, its {@code g_dacTable} (length and the
 * indexes of the entries a walker reads), and where those facts come from. A build whose facts a build file of
 * {@code profiles/builds/} records ({@code clrheap derive-profile}) may also move fields of its version's structures
 * (10.0.x server GC moves {@code gc_heap} fields by 8 bytes between builds): {@code ProfileLoader.load(version, gc,
 * build)} applies them.
 *
 * @param version     {@code major.minor.patch}
 * @param fileVersion the four-part file version of its sccsid string, or empty when the profile does not record it
 * @param commit      its dotnet/runtime commit, or empty
 * @param dacTable    its g_dacTable
 * @param provenance  how its table length is known
 * @param buildFile   the build file its facts come from ({@code builds/linux-x64-9.0.7.json}), or empty when the
 *                    version's profile itself lists it
 */
public record RuntimeBuild(String version, String fileVersion, String commit, DacTable dacTable, Provenance provenance, String buildFile) {

    public RuntimeBuild {
        fileVersion = fileVersion == null ? "" : fileVersion;
        commit = commit == null ? "" : commit;
        buildFile = buildFile == null ? "" : buildFile;
    }

    /** Its identity, as far as the profile records it. */
    public BuildIdentity identity() {
        return new BuildIdentity(version, fileVersion, commit);
    }
}
