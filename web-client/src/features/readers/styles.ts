// The reader pages are loaded lazily (src/app/routes.tsx), but the server
// renders them, so their styles belong in the main stylesheet.
import "./readers.css";
