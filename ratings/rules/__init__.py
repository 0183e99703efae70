"""The club's rules, each written once: who is published, results, pairings, rating
periods' names, time classes, names, rating lists, places on the list."""
