// The outreach pages are loaded lazily (src/app/routes.tsx), but the server
// renders them, so their styles belong in the main stylesheet, which styles
// the server's HTML before (and without) any script.
import "./outreach.css";
