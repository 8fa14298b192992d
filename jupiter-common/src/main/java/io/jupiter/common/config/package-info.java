/**
 * Jupiter's settings, declared once with their type, default, bounds, system property and documentation
 * ({@link io.jupiter.common.config.JupiterSettings}); builders and system properties share their checks, and the
 * settings table of docs/configuration.md is generated from them ({@link io.jupiter.common.config.SettingsTable}).
 */
package io.jupiter.common.config;
