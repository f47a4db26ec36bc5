"""The book's tables and vocabulary as data: rolls, firing, organisation, reference, special rules, sequence, cover."""
