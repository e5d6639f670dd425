package io.sluice.runtime;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The import rules between the runtime's packages (ARCHITECTURE.md, §1), on the main classes only:
 * a cycle, or a use of the TCCL wrappers outside plugin loading, fails the build here with the
 * classes that make it, rather than growing unnoticed.
 */
@AnalyzeClasses(
        packages = "io.sluice.runtime",
        importOptions = {ImportOption.DoNotIncludeTests.class, ImportOption.DoNotIncludeJars.class})
class PackageLayeringTest {

    /** {@code adapt}, {@code cli}, {@code config}, {@code plugin}, {@code sink}, {@code source}, ... */
    @ArchTest
    static final ArchRule topLevelPackagesAreFreeOfCycles =
            slices().matching("io.sluice.runtime.(*)..").should().beFreeOfCycles();

    /**
     * Each package on its own: the two sources, the lookup and the package they share too. Two
     * exceptions: the TCCL wrappers count as part of plugin loading (they implement its {@code
     * PluginBound}; it makes them), and the sink's subpackages are left out, as they take the sink's
     * descriptor and context from their parent, which builds its topology from them.
     */
    @ArchTest
    static final ArchRule packagesOutsideTheSinkAreFreeOfCycles =
            slices().assignedFrom(new EachPackageOutsideTheSink()).should().beFreeOfCycles();

    /**
     * The TCCL wrappers are how plugin loading hands out a plugin's extensions (rule 5); the rest of
     * the framework gets them already wrapped, through {@code io.sluice.runtime.plugin}.
     */
    @ArchTest
    static final ArchRule wrappersArePrivateToPluginLoading = noClasses()
            .that()
            .resideOutsideOfPackage("io.sluice.runtime.plugin..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.sluice.runtime.plugin.wrap..");

    private static final class EachPackageOutsideTheSink implements SliceAssignment {

        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            if (name.startsWith("io.sluice.runtime.plugin.wrap")) {
                return SliceIdentifier.of("io.sluice.runtime.plugin");
            }
            boolean runtime = name.startsWith("io.sluice.runtime.");
            boolean sink = name.equals("io.sluice.runtime.sink") || name.startsWith("io.sluice.runtime.sink.");
            return runtime && !sink ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "each package of io.sluice.runtime outside io.sluice.runtime.sink (plugin.wrap as plugin)";
        }
    }
}
