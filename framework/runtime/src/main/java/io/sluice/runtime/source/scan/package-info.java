/**
 * The scan source: {@link io.sluice.runtime.source.scan.ScanSource} reads a target's table by the
 * scans its plugin's {@code ScanSourceFactory} plans ({@code ScanSplitEnumerator}
 * over the plugin's {@code ScanPlanner}), each planned split a
 * {@link io.sluice.runtime.source.scan.ScanSourceSplit} read by the plugin's {@code ScanSplitReader}
 * ({@code ScanReadingFormat}, read by Flink's file source reader).
 *
 * <p>Built by SQL ({@code SluiceScanTableSource}) or by
 * {@link io.sluice.runtime.source.scan.TableSourceBuilder}; both plan it with
 * {@link io.sluice.runtime.source.scan.ScanSourcePlanner} into a
 * {@link io.sluice.runtime.source.scan.ScanDescriptor}. The split, the enumerator state and their
 * serializers are public as Flink's {@code Source} interface names them; the enumerator, the reader and
 * the reading format stay package-private.
 */
package io.sluice.runtime.source.scan;
