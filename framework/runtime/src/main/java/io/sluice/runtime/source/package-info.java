/**
 * What the two FLIP-27 sources share: {@link io.sluice.runtime.source.TaskSourceContext}, the
 * {@code SourceContext} plugin parts of either source get,
 * {@link io.sluice.runtime.source.SplitAssignment}, how both enumerators hand splits to waiting readers,
 * and {@link io.sluice.runtime.source.AttachedSplitEnumerator} / {@link
 * io.sluice.runtime.source.AttachedSourceReader}, which keep either source's enumerators and readers
 * attached to the {@link io.sluice.runtime.plugin.PluginLifecycle} until they close.
 *
 * <p>The sources themselves are in {@link io.sluice.runtime.source.file} (a directory of files read
 * through a format) and {@link io.sluice.runtime.source.scan} (a target's tables read by planned
 * scans). The classes here are public only because both subpackages use them; they are framework
 * internals, not API.
 */
package io.sluice.runtime.source;
