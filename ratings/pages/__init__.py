"""The read side: what each page shows, built as plain data, the publication rule applied."""
