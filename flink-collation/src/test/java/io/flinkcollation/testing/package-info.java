/**
 * Test utilities shared by the project's tests: reading back the rows of one data file and checking
 * a table's collation bounds against them. They use real Iceberg readers and real collations, no
 * mocks, and never depend on the code under test for the expected values.
 */
package io.flinkcollation.testing;
