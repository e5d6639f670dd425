package io.sluice.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a part of the SPI that is still settling: a type, method, constructor or field annotated
 * with it may change or go away in any release, a minor or patch one too, without the major
 * version of {@link SpiVersion} going up. Everything else in the SPI follows semantic versioning
 * (a minor version only adds, a major version may break), which the build checks against the last
 * released SPI; that check ignores what carries this annotation.
 *
 * <p>A plugin may use experimental parts, but must expect to be rebuilt (and perhaps changed) for
 * a later SPI, even of the same major version. When such a part has settled, the annotation is
 * removed in a minor version; from then on it is held to the same rules as the rest.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
public @interface Experimental {}
