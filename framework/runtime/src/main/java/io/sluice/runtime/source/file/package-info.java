/**
 * The file source: {@link io.sluice.runtime.source.file.SluiceFileSource} reads the files under a
 * path through a plugin's format, lists them with a plugin's {@code FileEnumerator}
 * ({@code FileSplitEnumerator}, which remembers what it has read in
 * {@code SeenFiles}) and adds the partition columns read from the
 * directory names ({@code FileReadingFormat}).
 *
 * <p>Built by SQL ({@code SluiceDynamicTableFactory}) or by
 * {@link io.sluice.runtime.source.file.SluiceFileSource#forRowData}
 * ({@link io.sluice.runtime.source.file.SluiceFileSourceBuilder}); both plan it with
 * {@link io.sluice.runtime.source.file.FileSourcePlanner} into a
 * {@link io.sluice.runtime.source.file.FileSourceDescriptor}. The enumerator state and its serializer
 * are public because a plugin's conformance test ({@code FileEnumeratorConformance}, through
 * {@link io.sluice.runtime.source.file.EnumeratorHarness}) checkpoints and restores them; the
 * enumerator, the reading format and the state's pieces stay package-private.
 */
package io.sluice.runtime.source.file;
